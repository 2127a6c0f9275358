#!/usr/bin/env python3
"""observe_numpy.py — `sqz life|heat|run --observe ... --every K --observe-out FILE` against NumPy: every row (step 0,
every K steps, the last step) equals the sum, count, min, max, moments about real points, centre of mass and probes
computed here on the --out state of a run of that many steps, to rounding; on the cpu backend and the default OpenCL
device, for the triangle, the tetrahedron and Sierpinski fractals, in their layouts, in one buffer and in 2 parts, as
CSV and JSON lines; the bad input (unknown item, probe off the domain, --every 0, malformed coordinates, moments on
layout bits) exits 2 naming it and leaves an existing --observe-out file as it was.
usage: observe_numpy.py path/to/sqz [--mpi MPIEXEC]   (--mpi: the same on 2 MPI ranks instead)"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heat_numpy import has_opencl, triangle_member  # noqa: E402  x <= y on the side x side embedding
from npy_numpy import carpet_member  # noqa: E402  (x, y) is a hole iff at some base-3 digit both digits are 1

SQZ = sys.argv[1]
MPI = sys.argv[sys.argv.index("--mpi") + 1] if "--mpi" in sys.argv else None
results = {"passed": 0, "failed": 0}


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    results["passed" if ok else "failed"] += 1


def sqz(args, ranks=1):
    cmd = [SQZ, *args] if ranks == 1 else [MPI, "--oversubscribe", "-np", str(ranks), SQZ, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def run_ok(args, ranks=1):
    p = sqz(args, ranks)
    if p.returncode != 0:
        sys.exit("sqz %s -> exit %d: %s" % (" ".join(args), p.returncode, p.stderr))


def sierpinski_member(level):
    """sqz's sierpinski-triangle (pattern #./##): at every binary digit, not x = 1 with y = 0."""
    y, x = np.indices((2 ** level, 2 ** level))
    return (x & ~y) == 0


def tetra_member(n):
    z, y, x = np.indices((n, n, n))
    return x + y + z <= n - 1


def oracle(state, member, items):
    """The items' values on an embedded state (columns as sqz names them), sums in exact-rounded fsum."""
    u = state.astype(np.float64)
    pos = np.indices(u.shape).astype(np.float64)  # (z,) y, x
    cells = u[member]
    total = math.fsum(cells)
    out = {}
    for item in items:
        name, _, at = item.partition("@")
        c = [float(v) for v in at.split(",")] if at else []
        if name == "sum":
            out[item] = total
        elif name == "nonzero":
            out[item] = float(np.count_nonzero(cells))
        elif name in ("min", "max"):
            out[item] = float(cells.min() if name == "min" else cells.max())
        elif name == "m2":
            r2 = sum((p - v) ** 2 for p, v in zip(pos, c))
            out[item] = math.fsum((u * r2)[member])
        elif name == "com":
            axes = ("y", "x") if u.ndim == 2 else ("z", "y", "x")
            for axis, p in zip(axes, pos):
                out["com_" + axis] = math.fsum((u * p)[member]) / total if total else float("nan")
        elif name == "probe":
            out[item] = float(u[tuple(int(v) for v in c)])
    return out


def read_rows(path):
    with open(path, newline="") as fp:
        if path.endswith(".jsonl"):
            return [{k: float("nan") if v is None else float(v) for k, v in json.loads(line).items()} for line in fp]
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(fp)]


def close(got, want, scale):
    if math.isnan(want):
        return math.isnan(got)
    return abs(got - want) <= 1e-12 * max(scale, abs(want), 1e-300)


def case(at, tag, cmd, spec, member, items, run_args, steps, every, out_ext=".csv", ranks=1):
    """Rows of one run against NumPy on the states of runs of 0, K, 2K, ... and `steps` steps."""
    obs = at("obs" + out_ext)
    args = [cmd, spec, *run_args, "--quiet"]
    flags = [a for item in items for a in ("--observe", item)]
    run_ok(args + ["--steps", str(steps), "--every", str(every), "--observe-out", obs, *flags], ranks)
    rows = read_rows(obs)
    want_steps = sorted(set(list(range(0, steps + 1, every)) + [steps]))
    check([int(r["step"]) for r in rows] == want_steps, "%s: rows at steps %s" % (tag, want_steps))
    worst, changed = 0.0, False
    for row in rows:
        state = at("state.npy")
        run_ok(args + ["--steps", str(int(row["step"])), "--out", state])
        s = np.load(state)
        want = oracle(s, member, items)
        scale = float(np.abs(s[member].astype(np.float64)).sum()) * (s.shape[-1] ** 2 + 1)
        bad = [k for k in want if not close(row[k], want[k], scale)]
        check(not bad and set(row) == set(want) | {"step"},
              "%s: step %d equals NumPy%s" % (tag, row["step"], (" except %s" % bad) if bad else ""))
        changed |= row != rows[0]
        for k in want:
            if not math.isnan(want[k]) and want[k] != 0:
                worst = max(worst, abs(row[k] - want[k]) / abs(want[k]))
    check(changed, "%s: the rows change along the run (largest relative difference to NumPy %.3g)" % (tag, worst))


def bad_input(at):
    """Exit status 2 naming the value; an existing --observe-out file left as it was, no temporary left."""
    obs = at("keep.csv")
    with open(obs, "w") as fp:
        fp.write("keep\n")
    base = ["heat", "fractal:sierpinski-carpet:3", "--steps", "3", "--every", "1", "--observe-out", obs, "--backend",
            "cpu"]
    for extra, named in ((["--observe", "bogus"], "bogus"), (["--observe", "probe@13,13"], "probe@13,13"),
                         (["--observe", "m2@1,x"], "m2@1,x"), (["--observe", "m2@1,2,3"], "m2@1,2,3"),
                         (["--observe", "probe@1.5,0"], "probe@1.5,0"), (["--observe", "sum", "--every", "0"], "0"),
                         (["--observe", "sum", "--init", "point:13,13"], "13"),
                         (["--observe", "com", "--layout", "bits"], "bits")):
        cmd = base if extra[-1] != "bits" else ["life"] + base[1:-2]
        p = sqz(cmd + extra)
        check(p.returncode == 2 and named in p.stderr, "bad input %s: exit %d naming '%s' (%s)" %
              (" ".join(extra), p.returncode, named, p.stderr.strip().splitlines()[0] if p.stderr else ""))
    with open(obs) as fp:
        check(fp.read() == "keep\n", "an existing --observe-out file is left as it was after the failures")
    check(os.listdir(os.path.dirname(obs)) == ["keep.csv"], "no temporary is left beside it")
    p = sqz(["heat", "triangle:5", "--steps", "2", "--observe-out", obs, "--observe", "sum"])
    check(p.returncode == 2 and "--every" in p.stderr, "--observe without --every: exit 2 naming --every")


carpet, tri, sier, tet = carpet_member(3), triangle_member(20), sierpinski_member(5), tetra_member(8)
moments2 = ["sum", "nonzero", "min", "max", "com", "m2@8,3", "m2@-0.5,-0.5", "probe@8,0"]
moments3 = ["sum", "nonzero", "min", "max", "com", "m2@1,2,3.25", "probe@1,2,3"]


def mpi_cases(at, backends):
    """One global series on 2 ranks, each rank a part."""
    for b in backends:
        name = " ".join(b) or "default device"
        case(at, "2 ranks heat carpet compact, " + name, "heat", "fractal:sierpinski-carpet:3", carpet, moments2,
             ["--init", "point:8,0:5", *b], 7, 3, ranks=2)
        case(at, "2 ranks life triangle, " + name, "life", "triangle:20", tri, ["sum", "nonzero", "com", "probe@8,0"],
             ["--init", "random:0.4:2", *b], 5, 2, out_ext=".jsonl", ranks=2)


def one_process_cases(at, backends):
    """Families, layouts, parts and both backends in one process, then the bad input."""
    for b in backends:
        name = " ".join(b) or "default device"
        for layout, parts in (("compact", "1"), ("block:9", "2"), ("bb", "1"), ("lambda", "2")):
            case(at, "heat carpet %s parts %s, %s" % (layout, parts, name), "heat", "fractal:sierpinski-carpet:3",
                 carpet, moments2, ["--init", "point:8,0:2.5", "--layout", layout, "--parts", parts, *b], 7, 3)
        case(at, "heat f32 sierpinski-triangle compact, " + name, "heat", "fractal:sierpinski-triangle:5", sier,
             moments2, ["--type", "f32", "--init", "random:5", *b], 6, 4, out_ext=".jsonl")
        for layout, parts in (("compact", "1"), ("bb", "2")):
            case(at, "heat triangle %s parts %s, %s" % (layout, parts, name), "heat", "triangle:20", tri, moments2,
                 ["--init", "random:3", "--layout", layout, "--parts", parts, *b], 5, 2)
            case(at, "heat tetrahedron %s parts %s, %s" % (layout, parts, name), "heat", "tetrahedron:8", tet, moments3,
                 ["--init", "point:1,2,3:4", "--alpha", "0.15", "--layout", layout, "--parts", parts, *b], 5, 2)
        case(at, "life carpet compact, " + name, "life", "fractal:sierpinski-carpet:3", carpet, moments2,
             ["--init", "random:0.4:1", *b], 4, 2)
        case(at, "life bits triangle 2 parts, " + name, "life", "triangle:20", tri,
             ["sum", "nonzero", "min", "max", "probe@8,0"], ["--init", "random:0.5:4", "--layout", "bits",
                                                              "--parts", "2", *b], 4, 3)
    if backends[-1] == []:  # a user kernel on i32 cells, negative values (OpenCL only)
        kernel = at("dec.cl")
        with open(kernel, "w") as fp:
            fp.write("sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
                     "                      __constant const sqz_param_t *param) { return self - nb[1] - 1; }\n")
        case(at, "run i32 sierpinski-triangle, default device", "run", "fractal:sierpinski-triangle:5", sier, moments2,
             ["--kernel", kernel, "--type", "i32", "--init", "random:0.5:3", "--layout", "block:4"], 5, 2)
    os.makedirs(at("bad"), exist_ok=True)
    bad_input(lambda name: os.path.join(at("bad"), name))


def main():
    backends = [["--backend", "cpu"]] + ([[]] if has_opencl() else [])
    with tempfile.TemporaryDirectory(prefix="sqz_observe_numpy_") as work:
        def at(name):
            return os.path.join(work, name)
        (mpi_cases if MPI else one_process_cases)(at, backends)
    print("%d passed, %d failed" % (results["passed"], results["failed"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
