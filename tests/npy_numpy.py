#!/usr/bin/env python3
"""npy_numpy.py — NumPy cross-check of sqz's .npy files: NumPy reads what sqz writes, sqz reads what
NumPy writes, and a Life step agrees with one written here in NumPy. usage: npy_numpy.py path/to/sqz"""
import os
import subprocess
import sys
import tempfile

import numpy as np

SQZ = sys.argv[1]
failures = []
passes = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    (passes if ok else failures).append(what)


def sqz(*args):
    p = subprocess.run([SQZ, *args, "--backend", "cpu"], capture_output=True, text=True)
    return p.returncode, p.stderr


def run_ok(*args):
    rc, err = sqz(*args)
    if rc != 0:
        sys.exit("sqz %s -> exit %d: %s" % (" ".join(args), rc, err))


def read_pbm(path):
    """P4 as written by sqz: 'P4', width, height (whitespace, '#' comments), one whitespace, packed rows."""
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 3:
        while data[i:i + 1].isspace() or data[i:i + 1] == b"#":
            if data[i:i + 1] == b"#":
                i = data.index(b"\n", i)
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    assert fields[0] == b"P4", fields
    w, h = int(fields[1]), int(fields[2])
    rows = np.frombuffer(data[i + 1:], np.uint8).reshape(h, (w + 7) // 8)
    return np.unpackbits(rows, axis=1)[:, :w]


def carpet_member(level):
    """Sierpinski carpet: (x, y) is a hole if at some base-3 digit both digits are 1."""
    side = 3 ** level
    y, x = np.mgrid[0:side, 0:side]
    member = np.ones((side, side), bool)
    for _ in range(level):
        member &= ~((x % 3 == 1) & (y % 3 == 1))
        x, y = x // 3, y // 3
    return member


def moore_count(alive):
    """For each cell, how many of its 8 Moore neighbours are alive (a bool array); outside the array reads as 0."""
    h, w = alive.shape
    p = np.pad(alive.astype(np.int32), 1)
    return sum(p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))


def life_step(a, member):
    """B3/S23 with the 8 Moore neighbours; outside the array and off the domain read as 0."""
    n = moore_count(a != 0)
    alive = a != 0
    return (((n == 3) | (alive & (n == 2))) & member).astype(np.uint8)


def main():
    with tempfile.TemporaryDirectory(prefix="sqz_npy_numpy_") as work:
        cross_check(lambda name: os.path.join(work, name))
    print("%d passed, %d failed" % (len(passes), len(failures)))
    return 1 if failures else 0


def cross_check(at):

    # sqz writes, NumPy reads: the same state as .npy and as PBM
    run_ok("life", "triangle:7", "--steps", "0", "--init", "random:0.5:3", "--out", at("a.npy"))
    run_ok("life", "triangle:7", "--steps", "0", "--init", "random:0.5:3", "--out", at("a.pbm"))
    a = np.load(at("a.npy"))
    check(a.dtype == np.uint8, "triangle:7 .npy dtype is uint8 (%s)" % a.dtype)
    check(a.shape == (7, 7), "triangle:7 .npy shape is (7, 7) (%s)" % (a.shape,))
    check(np.array_equal(a, read_pbm(at("a.pbm"))), "triangle:7 .npy equals the PBM of the same run")
    y, x = np.mgrid[0:7, 0:7]
    check(not a[x > y].any(), "cells outside the triangle (x > y) are 0")
    check(0 < int(a.sum()) < 28, "the random state is neither empty nor full (%d live)" % a.sum())

    # 3D: [z][y][x], the PBM stacks slice z in rows z*N .. z*N+N-1
    run_ok("life", "tetrahedron:5", "--steps", "0", "--init", "random:0.5:2", "--out", at("t.npy"))
    run_ok("life", "tetrahedron:5", "--steps", "0", "--init", "random:0.5:2", "--out", at("t.pbm"))
    t = np.load(at("t.npy"))
    check(t.dtype == np.uint8 and t.shape == (5, 5, 5), "tetrahedron:5 .npy is uint8 (5, 5, 5)")
    check(np.array_equal(t.reshape(25, 5), read_pbm(at("t.pbm"))), "tetrahedron:5 .npy [z][y][x] equals the PBM")
    z, y, x = np.mgrid[0:5, 0:5, 0:5]
    check(not t[x + y + z > 4].any(), "cells outside the tetrahedron are 0")

    # NumPy writes, sqz reads and steps: compared with the Life step above
    member = carpet_member(2)
    state = np.zeros((9, 9), np.uint8)
    for gx, gy in ((1, 0), (2, 1), (0, 2), (1, 2), (2, 2)):  # a glider in the top-right corner
        state[gy, gx + 6] = 1
    state[3:6, 2] = 1  # a blinker whose next phase, (1, 4) .. (3, 4), has both ends on holes
    check(not state[~member].any(), "the NumPy state lies on the carpet")
    full = np.ones((9, 9), bool)
    check((life_step(state, full) & ~member).any(), "without the holes a cell would be born on one in step 1")
    np.save(at("init.npy"), state)
    for layout in ("compact", "bb"):
        for steps in (1, 4):
            out = at("b_%s_%d.npy" % (layout, steps))
            run_ok("life", "fractal:sierpinski-carpet:2", "--init", at("init.npy"), "--steps", str(steps),
                   "--layout", layout, "--out", out)
            want = state
            for _ in range(steps):
                want = life_step(want, member)
            got = np.load(out)
            check(got.dtype == np.uint8 and got.shape == (9, 9), "carpet .npy is uint8 (9, 9)")
            check(np.array_equal(got, want), "carpet, layout %s, %d step(s): sqz equals the NumPy Life step" %
                  (layout, steps))
            check(not got[~member].any(), "carpet holes stay 0")

    # a float32 file given to the u8 Life field: exit 2, the dtype named, nothing written
    np.save(at("f.npy"), state.astype(np.float32))
    rc, err = sqz("life", "fractal:sierpinski-carpet:2", "--init", at("f.npy"), "--steps", "1", "--out", at("c.npy"))
    check(rc == 2, "float32 --init exits 2 (%d)" % rc)
    check("'<f4'" in err and "float32" in err, "the message names '<f4': %s" % err.strip())
    check(not os.path.exists(at("c.npy")), "nothing written after the refused input")

    # Life cells are 0 or 1: np.save of a 2 or a 255 exits 2 naming the first such cell in NumPy's order
    cells = np.flatnonzero(member)
    for value in (2, 255):
        bad = state.copy()
        bad.flat[cells[-1]] = 3
        i = int(cells[len(cells) // 2])
        bad.flat[i] = value
        check(int(np.flatnonzero(bad > 1)[0]) == i, "cell %d is the first above 1" % i)
        np.save(at("bad.npy"), bad)
        want = "bad.npy: fractal:sierpinski-carpet:2: cell %d (x %d, y %d) holds %d; Life cells are 0 or 1" % (
            i, i % 9, i // 9, value)
        for layout in ("compact", "bb", "bits"):
            rc, err = sqz("life", "fractal:sierpinski-carpet:2", "--init", at("bad.npy"), "--steps", "1", "--layout",
                          layout, "--out", at("c.npy"))
            check(rc == 2 and want in err, "a %d, layout %s: exit 2 (%d) naming the cell: %s" % (
                value, layout, rc, err.strip()))
            check(not os.path.exists(at("c.npy")), "nothing written after the refused cells")


if __name__ == "__main__":
    sys.exit(main())
