#!/usr/bin/env python3
"""heat_numpy.py — `sqz heat` against an independent NumPy diffusion: the same steps computed here over the
embedded array with a domain mask, cell for cell, on the cpu backend and, where `sqz devices` lists one, on the
default OpenCL device; the total conserved, cells outside the domain 0. usage: heat_numpy.py path/to/sqz"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_numpy import carpet_member  # noqa: E402  (x, y) is a hole iff at some base-3 digit both digits are 1

SQZ = sys.argv[1]
results = {"passed": 0, "failed": 0}


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    results["passed" if ok else "failed"] += 1


def sqz(*args):
    """Runs sqz; returns the parsed --json output (exits the script on failure)."""
    p = subprocess.run([SQZ, *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("sqz %s -> exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return json.loads(p.stdout)


def triangle_member(n):
    y, x = np.mgrid[0:n, 0:n]
    return x <= y


# Face neighbours in the engine's raster order (N, W, E, S), as (dy, dx): the terms are added in this order.
FACES = ((-1, 0), (0, -1), (0, 1), (1, 0))


def shifted(a, dy, dx):
    """b[y, x] = a[y + dy, x + dx], 0 off the array."""
    h, w = a.shape
    b = np.zeros_like(a)
    b[max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)] = a[max(0, dy):h - max(0, -dy), max(0, dx):w - max(0, -dx)]
    return b


def heat(u, member, alpha, steps):
    """u' = u + alpha * sum over the face neighbours that are domain cells of (u_n - u), insulated borders/holes."""
    t = u.dtype.type
    u = u.copy()
    present = [shifted(member, dy, dx) & member for dy, dx in FACES]
    for _ in range(steps):
        d = np.zeros_like(u)
        for (dy, dx), p in zip(FACES, present):
            d = np.where(p, d + (shifted(u, dy, dx) - u), d)
        u = np.where(member, u + t(alpha) * d, t(0))
    return u


def compare(name, got, want, member, tol):
    """Cell for cell within tol relative to the larger magnitude (absolute below 1e-300)."""
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    rel = np.abs(got64 - want64) / np.maximum(np.maximum(np.abs(got64), np.abs(want64)), 1e-300)
    worst = float(rel.max())
    same = bool(np.array_equal(got, want))
    check(worst <= tol, "%s: sqz equals NumPy cell for cell (max relative difference %.3g%s, tolerance %g)" %
          (name, worst, ", bit-identical" if same else "", tol))
    check(not got[~member].any(), "%s: cells outside the domain are 0" % name)


def case(at, backend, spec, member, dtype, init, steps, alpha, layout):
    """sqz heat from init (random:SEED, whose state a 0-step run writes, or a .npy file), against NumPy."""
    name = "%s %s %s %s --init %s" % (backend or "default backend", spec, layout, dtype, os.path.basename(init))
    back = ["--backend", backend] if backend else []
    tol = 1e-12 if dtype == "f64" else 1e-5
    common = [spec, "--type", dtype, "--init", init, "--layout", layout, "--json", *back]
    common += ["--alpha", str(alpha)] if alpha else []
    start = at("start.npy")
    sqz("heat", *common, "--steps", "0", "--out", start)
    out = at("out.npy")
    j = sqz("heat", *common, "--steps", str(steps), "--out", out)
    u0, got = np.load(start), np.load(out)
    want_backend = backend or os.environ.get("SQZ_BACKEND") or "opencl"
    check(j["backend"] == want_backend, "%s: ran on the %s backend" % (name, j["backend"]))
    want_dtype = np.float64 if dtype == "f64" else np.float32
    check(got.dtype == want_dtype and got.shape == member.shape, "%s: dtype %s shape %s" % (name, got.dtype, got.shape))
    check(not u0[~member].any() and u0[member].std() > 0.1, "%s: the initial state lies on the domain and varies" % name)
    want = heat(u0, member, j["alpha"], steps)
    check(float(np.abs(want - u0).max()) > 1e-3, "%s: %d steps of NumPy heat change the state" % (name, steps))
    compare(name, got, want, member, tol)
    s0 = float(np.sum(u0, dtype=np.float64))
    check(abs(j["sum_initial"] - s0) <= 1e-12 * s0, "%s: sum_initial %.17g is the NumPy sum %.17g" %
          (name, j["sum_initial"], s0))
    drift = abs(j["sum_final"] - j["sum_initial"]) / j["sum_initial"]
    check(drift <= (1e-12 if dtype == "f64" else 1e-5), "%s: sum_final %.17g conserves sum_initial %.17g (%.3g)" %
          (name, j["sum_final"], j["sum_initial"], drift))
    check(abs(j["sum_final"] - float(np.sum(got, dtype=np.float64))) <= 1e-12 * s0,
          "%s: sum_final is the sum of the written state" % name)


def has_opencl():
    p = subprocess.run([SQZ, "devices", "--json"], capture_output=True, text=True)
    return p.returncode == 0 and any(d["backend"] == "opencl" for d in json.loads(p.stdout))


def main():
    domains = (("fractal:sierpinski-carpet:3", carpet_member(3)), ("triangle:20", triangle_member(20)))
    backends = ["cpu"] + ([None] if has_opencl() else [])
    if backends == ["cpu"]:
        print("no OpenCL device listed by `sqz devices`: the default-backend runs are left out")
    with tempfile.TemporaryDirectory(prefix="sqz_heat_numpy_") as work:
        def at(name):
            return os.path.join(work, name)
        rng = np.random.default_rng(11)
        for spec, member in domains:
            own = at("own_%s.npy" % spec.split(":")[-2])
            np.save(own, np.where(member, rng.random(member.shape), 0.0))  # NumPy's own initial state, f8
            for backend in backends:
                case(at, backend, spec, member, "f64", "random:7", 50, None, "compact")
                case(at, backend, spec, member, "f64", own, 50, 0.25, "bb")
        for backend in backends:  # f32 in NumPy's float32 arithmetic
            case(at, backend, "triangle:20", triangle_member(20), "f32", "random:3", 30, 0.125, "compact")
    print("%d passed, %d failed" % (results["passed"], results["failed"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
