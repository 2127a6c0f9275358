#!/usr/bin/env python3
"""heat_dense_numpy.py — sqz heat on a Sierpinski carpet against the dense code a user would write without sqz:
NumPy over the whole bounding box with a domain mask (the same update: insulated holes and borders, face
neighbours) and a plain OpenCL kernel over that box on the device sqz used (scripts/heat_dense_opencl.c, compiled
here with cc -lOpenCL when a C compiler is found), in one run on the same machine. Prints ms per step of each
and the ratios.
usage: heat_dense_numpy.py path/to/sqz LEVEL [STEPS] [extra sqz options, e.g. --backend cpu]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from npy_numpy import carpet_member  # noqa: E402  the carpet's mask, level by level (the tests' own)

sqz, level = sys.argv[1], int(sys.argv[2])
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
extra = sys.argv[4:]
alpha = 0.2

side = 3 ** level
mask = carpet_member(level)
rng = np.random.default_rng(1)
u = np.where(mask, rng.random((side, side)), 0.0)
m = mask.astype(np.float64)


def step(u):
    """u' = u + alpha * sum over the face neighbours that are domain cells of (u_n - u)."""
    acc = np.zeros_like(u)
    acc[1:, :] += m[:-1, :] * (u[:-1, :] - u[1:, :])
    acc[:-1, :] += m[1:, :] * (u[1:, :] - u[:-1, :])
    acc[:, 1:] += m[:, :-1] * (u[:, :-1] - u[:, 1:])
    acc[:, :-1] += m[:, 1:] * (u[:, 1:] - u[:, :-1])
    return (u + alpha * acc) * m


best = float("inf")
for _ in range(steps):
    t0 = time.perf_counter()
    u = step(u)
    best = min(best, time.perf_counter() - t0)
p = subprocess.run([sqz, "heat", "fractal:sierpinski-carpet:%d" % level, "--type", "f64", "--steps", str(steps),
                    "--alpha", str(alpha), "--quiet", "--json", *extra], capture_output=True, text=True, check=True)
d = json.loads(p.stdout)
ms = d["kernel_s"] / steps * 1000
print("carpet level %d (%d cells in a %d x %d box), %d steps, f64" % (level, d["cells"], side, side, steps))
print("sqz %-8s %9.1f ms a step (kernel, %s, %s)" % (d["backend"], ms, d["engine"], d["device"]))
print("numpy dense %9.1f ms a step (best of %d)" % (best * 1000, steps))
print("sqz / numpy: %.2fx faster" % (best * 1000 / ms))

cc = shutil.which("cc") or shutil.which("gcc")
if cc:
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "heat_dense_opencl")
        subprocess.run([cc, "-O2", "-std=c11", "-o", exe, os.path.join(here, "heat_dense_opencl.c"), "-lOpenCL"],
                       check=True)
        dev = d["device"] if d["backend"] == "opencl" else ""
        q = json.loads(subprocess.run([exe, str(level), str(steps)] + ([dev] if dev else []), capture_output=True,
                                      text=True, check=True).stdout)
    print("opencl dense %8.1f ms a step (kernel, mean of %d, best %.1f, %s)" % (q["ms_per_step"], steps, q["best_ms"], q["device"]))
    print("sqz / dense opencl: %.2fx faster" % (q["ms_per_step"] / ms))
else:
    print("dense opencl: skipped (no C compiler)")
