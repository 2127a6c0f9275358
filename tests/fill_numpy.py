#!/usr/bin/env python3
"""fill_numpy.py — sqz's fills (random, uniform, const, point) against an independent NumPy/Python computation of
the same counter-based hash (SplitMix64's finaliser of the seed, xor the embedded index, finalised again): every
domain cell of the --out state equals it bit for bit, holes and cells outside the domain 0; on the default device
and the cpu backend, one buffer and parts. usage: fill_numpy.py path/to/sqz"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_numpy import carpet_member  # noqa: E402  the carpet's mask, level by level

SQZ = sys.argv[1]
M = (1 << 64) - 1
failed = 0


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def hashes(seed, n_cells):
    """The 64-bit hash of every embedded index 0 .. n_cells - 1, as Python ints."""
    k = mix((seed + 0x9E3779B97F4A7C15) & M)
    return [mix(k ^ e) for e in range(n_cells)]


def expect(kind, dtype, member, seed=1, density=0.5, value=0.0):
    """The state a fill gives on the embedded array whose domain mask is member (flattened in index order)."""
    flat = member.ravel()
    out = np.zeros(flat.size, dtype=dtype)
    hs = hashes(seed, flat.size) if kind in ("random", "uniform") else None
    for e in np.flatnonzero(flat):
        if kind == "random":
            out[e] = 1 if (hs[e] >> 32) < int(density * 2**32) else 0
        elif kind == "uniform":
            out[e] = (hs[e] >> 11) * 2.0**-53 if dtype == np.float64 else np.float32((hs[e] >> 40) * 2.0**-24)
        else:
            out[e] = value
    return out.reshape(member.shape)


def run(args, path):
    p = subprocess.run([SQZ, *args, "--steps", "0", "--out", path, "--quiet"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("sqz %s -> exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return np.load(path)


def check(got, want, what):
    global failed
    ok = got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got.view(np.uint8), want.view(np.uint8))
    print(("ok: " if ok else "FAIL: ") + what)
    failed += not ok


n = 27
carpet = carpet_member(3)
tri = np.tril(np.ones((30, 30), dtype=bool))
z, y, x = np.indices((7, 7, 7))
tet = x + y + z <= 6
backends = [["--backend", "cpu"], []]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "s.npy")
    for b in backends:
        tag = " ".join(b) or "default device"
        for layout, parts in (("compact", "1"), ("block:9", "2"), ("bb", "3")):
            got = run(["heat", "fractal:sierpinski-carpet:3", "--type", "f64", "--init", "random:9", "--layout", layout,
                       "--parts", parts] + b, out)
            check(got, expect("uniform", np.float64, carpet, seed=9), "uniform f64 carpet %s parts %s, %s" % (layout, parts, tag))
        got = run(["heat", "triangle:30", "--type", "f32", "--init", "random:4", "--layout", "bb"] + b, out)
        check(got, expect("uniform", np.float32, tri, seed=4), "uniform f32 triangle bb, " + tag)
        got = run(["life", "tetrahedron:7", "--init", "random:0.3:12", "--layout", "compact"] + b, out)
        check(got, expect("random", np.uint8, tet, seed=12, density=0.3), "random u8 tetrahedron, " + tag)
        got = run(["heat", "tetrahedron:7", "--type", "f32", "--init", "const:0.1"] + b, out)
        check(got, expect("const", np.float32, tet, value=np.float32(0.1)), "const f32 tetrahedron, " + tag)
        got = run(["heat", "fractal:sierpinski-carpet:3", "--init", "point:26,18:3.5", "--parts", "2"] + b, out)
        want = np.zeros((n, n))
        want[26, 18] = 3.5
        check(got, want, "point f64 carpet in 2 parts, " + tag)
print("%d failure(s)" % failed)
sys.exit(1 if failed else 0)
