#!/usr/bin/env python3
"""h5_h5py.py — sqz's HDF5 checkpoints as h5py writes them: string attributes in both of h5py's forms (np.bytes_
fixed-length, without a NUL; str variable-length) load exactly, and checkpoints that read other files (external
storage, an external link) or hold another type than their cell_type are refused with exit 2, nothing written.
usage: h5_h5py.py path/to/sqz"""
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

SQZ = sys.argv[1]
DOMAIN = "triangle:20"
failures = []
passes = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    (passes if ok else failures).append(what)


def sqz(*args):
    p = subprocess.run([SQZ, *args, "--backend", "cpu"], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def load(ckpt, out):
    """The state of ckpt as `sqz heat --init` reads it (0 steps), saved to out: (exit status, output)."""
    if os.path.exists(out):
        os.remove(out)
    return sqz("heat", DOMAIN, "--steps", "0", "--init", ckpt, "--out", out, "--json")


def rewrite_attrs(path, form):
    """The string attributes of 'state' rewritten in one of h5py's forms."""
    with h5py.File(path, "r+") as f:
        attrs = f["state"].attrs
        for name in ("domain", "cell_type", "workload"):
            text = attrs[name].decode() if isinstance(attrs[name], bytes) else str(attrs[name])
            del attrs[name]
            attrs[name] = np.bytes_(text.encode()) if form == "fixed" else text
        kind = attrs.get_id("domain").get_type()
        return kind.is_variable_str() if form == "variable" else kind.get_size() == len(DOMAIN)


def string_forms(at):
    rc, out = sqz("heat", DOMAIN, "--steps", "3", "--out", at("ck.h5"))
    if rc != 0:
        sys.exit("sqz heat --out ck.h5 -> exit %d: %s" % (rc, out))
    rc, out = load(at("ck.h5"), at("ref.npy"))
    check(rc == 0, "sqz's own checkpoint loads: %s" % out.strip())
    ref = np.load(at("ref.npy"))
    for form in ("fixed", "variable"):
        shutil.copy(at("ck.h5"), at(form + ".h5"))
        check(rewrite_attrs(at(form + ".h5"), form), "%s: the attributes are stored in that form" % form)
        rc, out = load(at(form + ".h5"), at(form + ".npy"))
        check(rc == 0, "%s-length string attributes load (exit %d): %s" % (form, rc, out.strip()))
        same = rc == 0 and np.array_equal(np.load(at(form + ".npy")), ref)
        check(same, "%s-length string attributes: the state equals sqz's own checkpoint's" % form)


def refused(at, name, want):
    rc, out = load(at(name), at("no.npy"))
    ok = rc == 2 and all(w in out for w in want) and not os.path.exists(at("no.npy"))
    check(ok, "%s: exit 2 (%d) naming %s, nothing written: %s" % (name, rc, want, out.strip()))


def hostile(at):
    with h5py.File(at("ck.h5"), "r") as f:
        values, attrs = f["state"][...], dict(f["state"].attrs)
    values.tofile(at("secret"))
    with h5py.File(at("external.h5"), "w") as f:  # external storage: the values from another file
        ds = f.create_dataset("state", shape=values.shape, dtype=values.dtype,
                              external=[(at("secret"), 0, values.nbytes)])
        ds.attrs.update(attrs)
    refused(at, "external.h5", ["'state'", "external storage"])
    with h5py.File(at("link.h5"), "w") as f:  # an external link to a good checkpoint
        f["state"] = h5py.ExternalLink(at("ck.h5"), "/state")
    refused(at, "link.h5", ["'state'", "external link"])
    with h5py.File(at("f32.h5"), "w") as f:  # f32 values under cell_type f64: HDF5 would convert them
        ds = f.create_dataset("state", data=values.astype(np.float32))
        ds.attrs.update(attrs)
    refused(at, "f32.h5", ["'state'", "4-byte floats", "f64"])


def step_counts(at):
    """The step attribute is read exactly: a negative, fractional or non-integer one is refused (HDF5 clamped -1 to 0
    and converted 2.5 to 2, silently), and one that --steps would carry past 2^64 - 1 is refused before the steps
    (it wrapped)."""
    for name, value, want in (("neg", np.int64(-1), ["'step'", "is -1"]),
                              ("half", np.float64(2.5), ["'step'", "not one integer"]),
                              ("text", "7", ["'step'", "not one integer"])):
        shutil.copy(at("ck.h5"), at(name + ".h5"))
        with h5py.File(at(name + ".h5"), "r+") as f:
            del f["state"].attrs["step"]
            f["state"].attrs["step"] = value
        refused(at, name + ".h5", want)
    shutil.copy(at("ck.h5"), at("top.h5"))
    with h5py.File(at("top.h5"), "r+") as f:
        f["state"].attrs["step"] = np.uint64(2**64 - 3)
    rc, out = sqz("heat", DOMAIN, "--steps", "5", "--init", at("top.h5"), "--out", at("next.h5"))
    ok = rc == 2 and "step 18446744073709551613" in out and not os.path.exists(at("next.h5"))
    check(ok, "a step count past 2^64 - 1: exit 2 (%d) naming it, nothing written: %s" % (rc, out.strip()))
    rc, out = sqz("heat", DOMAIN, "--steps", "2", "--init", at("top.h5"), "--out", at("next.h5"))
    with h5py.File(at("next.h5"), "r") as f:
        step = int(f["state"].attrs["step"]) if rc == 0 else None
    check(step == 2**64 - 1, "up to 2^64 - 1 the count carries on: %s" % step)


def main():
    with tempfile.TemporaryDirectory(prefix="sqz_h5_h5py_") as work:
        def at(name):
            return os.path.join(work, name)
        string_forms(at)
        hostile(at)
        step_counts(at)
    print("%d passed, %d failed" % (len(passes), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
