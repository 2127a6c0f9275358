#!/usr/bin/env python3
"""gen_simplex.py — writes the simplex test vectors of tests/data/ from the Python oracle.

Usage: python3 tests/data/gen_simplex.py REFERENCE_DIR [OUT_DIR]

REFERENCE_DIR holds the oracle (maps.py). The vectors are committed, so tests never need
the oracle. Files written (one record per line, first word = record kind):
  simplex_maps.txt  map outputs, launch plans and volume analysis from maps.py
  simplex_life.txt  Life on triangle:N / tetrahedron:N from an independent reference below
  simplex_edm.txt   Euclidean distance matrices (double precision)
"""

import math
import os
import random
import sys
from fractions import Fraction

if len(sys.argv) < 2:
    sys.exit(__doc__)
sys.path.insert(0, sys.argv[1])
import maps as M  # noqa: E402

OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
MASK = (1 << 64) - 1


def maps_vectors(out):
    # LTM: exact triangular root around every row boundary, small and large rows
    rows = list(range(0, 300)) + [1000, 3142, 3143, 3144, 9999, 10000, 65535, 65536,
                                   (1 << 20) - 1, 1 << 20, (1 << 26) - 3, (1 << 26) - 1]
    for k in rows:
        for bc in {max(M.tri(k) - 1, 0), M.tri(k), M.tri(k) + k // 2}:
            x, y = M.ltm2_index_to_block(bc)
            out.append("ltm2 %d %d %d" % (bc, x, y))
    # LTM3: exact tetrahedral root (X <= Y <= Z form) around every layer boundary
    layers = list(range(0, 120)) + [203, 204, 205, 1000, 4095, 65535, (1 << 20) - 1]
    for z in layers:
        for w in {max(M.tet(z) - 1, 0), M.tet(z), M.tet(z) + M.tri(z) // 2}:
            a, b, c = M.ltm3_index_to_block(w)
            out.append("ltm3 %d %d %d %d" % (w, a, b, c))
    # RB fold: every rectangle point for small n
    for n in range(1, 25):
        w, h = M.rb2_dims(n)
        for v in range(h):
            for u in range(w):
                x, y = M.rb2_map(n, u, v)
                out.append("rb %d %d %d %d %d" % (n, u, v, x, y))
    # HAD2 UPPER and LOWER block maps
    for k in range(0, 6):
        nb = 1 << k
        gx, gy = M.had2_grid(nb)
        for wy in range(gy):
            for wx in range(gx):
                x, y = M.had2_block(nb, wx, wy)
                out.append("had2 %d %d %d %d %d" % (nb, wx, wy, x, y))
    for lb in (1, 2, 4, 8):
        for mb in range(lb, lb + 7):
            gx, gy = M.had2_lower_grid(lb, mb)
            for wy in range(gy):
                for wx in range(gx):
                    x, y = M.had2_lower_block(lb, mb, wx, wy)
                    out.append("had2low %d %d %d %d %d %d" % (lb, mb, wx, wy, x, y))
    # HAD2 plans for any n: approach A (tol none) and B
    for n in list(range(1, 40)) + [63, 64, 65, 100, 127, 128, 129, 255, 257, 1000, 4097]:
        for rho in (1, 2, 4, 8, 16):
            for tol in (None, 0, rho, 2 * rho):
                plan = M.had2_plan(n, rho, tol)
                parts = []
                for kind, off, par in plan:
                    if kind == "upper":
                        parts.append("U %d %d" % (off, par))
                    else:
                        parts.append("L %d %d %d" % (off, par[0], par[1]))
                out.append("had2plan %d %d %d %d %s" % (n, rho, -1 if tol is None else tol,
                                                        len(plan), " ".join(parts)))
    # HAD3 main orthotope and strip (block level)
    for k in range(1, 5):
        nb = 1 << k
        (gx, gy, gz), _ = M.had3_grid(nb)
        for z in range(gz):
            for y in range(gy):
                for x in range(gx):
                    b = M.had3_main_block(nb, x, y, z)
                    if b is None:
                        out.append("had3 %d %d %d %d -" % (nb, x, y, z))
                    else:
                        out.append("had3 %d %d %d %d %d %d %d" % ((nb, x, y, z) + b))
    for k in range(0, 4):
        nb = 1 << k
        gx, gy = M.had2_grid(nb)
        for wy in range(gy):
            for wx in range(gx):
                b = M.had3_strip_block(nb, wx, wy)
                out.append("had3s %d %d %d %d %d %d" % ((nb, wx, wy) + b))
    # recursive plans in block units (squares/cubes and filtered leaves)
    for nb in list(range(1, 24)) + [31, 32, 33, 64, 100, 127]:
        for mins in (1, 2, 3, 8):
            plan = M.rec2_plan(nb, mins)
            parts = ["%s %d %d %d" % (k[0].upper(), x0, y0, s) for k, x0, y0, s in plan]
            out.append("rec2plan %d %d %d %s" % (nb, mins, len(plan), " ".join(parts)))
    for nb in (1, 2, 4, 8, 16, 32):
        for mins in (1, 2, 4):
            plan = M.rec3_plan(nb, mins)
            parts = ["%d %d %d %d" % (x0, y0, z0, s) for _k, x0, y0, z0, s in plan]
            out.append("rec3plan %d %d %d %s" % (nb, mins, len(plan), " ".join(parts)))
    # volume analysis (docs/MAPS.md 3 and 2.4)
    for nb in (2, 4, 8, 16, 64, 1024):
        fr = M.had3_extra_fraction(nb)
        out.append("had3extra %d %.12f" % (nb, float(fr)))
    for m in range(2, 8):
        for r, beta in ((Fraction(1, 2), 2), (Fraction(1, 2), 3), (Fraction(1, 3), 2)):
            lim = M.extra_fraction_limit(m, r, beta)
            s = int(1 / r)
            n = s ** 4
            vs = M.recursive_set_volume(n, m, r, beta)
            out.append("msimplex %d %.12f %d %d %.12f %.6f %d" % (
                m, float(r), beta, n, float(lim), float(vs), M.simplex_volume(n, m)))


# ------------------------------------------------------------------ Life reference
def mix64(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
    return z ^ (z >> 31)


def random_cell(seed, index, threshold):
    h = mix64(mix64((seed + 0x9e3779b97f4a7c15) & MASK) ^ index)
    return 1 if (h >> 32) < threshold else 0


def life_cells(dims, n):
    if dims == 2:
        return [(x, y, 0) for y in range(n) for x in range(y + 1)]
    return [(x, y, z) for z in range(n) for y in range(n) for x in range(n) if x + y + z <= n - 1]


def inside(dims, n, x, y, z):
    if min(x, y, z) < 0:
        return False
    return x <= y < n if dims == 2 else x + y + z <= n - 1


def life_run(dims, n, birth, survive, threshold, seed, steps):
    cells = life_cells(dims, n)
    emb = (lambda x, y, z: y * n + x) if dims == 2 else (lambda x, y, z: (z * n + y) * n + x)
    state = {c: random_cell(seed, emb(*c), threshold) for c in cells}
    dz = (0,) if dims == 2 else (-1, 0, 1)
    offs = [(a, b, c) for c in dz for b in (-1, 0, 1) for a in (-1, 0, 1) if (a, b, c) != (0, 0, 0)]
    for _ in range(steps):
        nxt = {}
        for (x, y, z) in cells:
            cnt = sum(state[(x + a, y + b, z + c)] for a, b, c in offs
                      if inside(dims, n, x + a, y + b, z + c))
            mask = survive if state[(x, y, z)] else birth
            nxt[(x, y, z)] = (mask >> cnt) & 1
        state = nxt
    bits = 0
    for (x, y, z), v in state.items():
        if v:
            bits |= 1 << emb(x, y, z)
    total = n ** dims
    return sum(state.values()), "%0*x" % ((total + 3) // 4, bits)


def mask_of(counts):
    return sum(1 << c for c in counts)


def life_vectors(out):
    b3s23 = (mask_of([3]), mask_of([2, 3]))
    b2s23 = (mask_of([2]), mask_of([2, 3]))
    b6s567 = (mask_of([6]), mask_of([5, 6, 7]))
    b4s3 = (mask_of([4, 5]), mask_of([3, 4, 5, 6]))
    b5s58 = (mask_of([5, 6, 7, 8]), mask_of([5, 6, 7, 8, 9, 10]))
    for n in (1, 2, 3, 5, 8, 13, 16, 17, 31, 33):
        for (bm, sm), steps in ((b3s23, 1), (b3s23, 4), (b2s23, 3)):
            live, hx = life_run(2, n, bm, sm, 1 << 31, 7 + n, steps)
            out.append("life 2 %d %d %d %d %d %d %d %s" % (n, bm, sm, 1 << 31, 7 + n, steps, live, hx))
    for n in (1, 2, 3, 4, 7, 8, 9, 12):
        for (bm, sm), steps in ((b6s567, 1), (b4s3, 2), (b5s58, 3)):
            live, hx = life_run(3, n, bm, sm, 3 << 30, 11 + n, steps)
            out.append("life 3 %d %d %d %d %d %d %d %s" % (n, bm, sm, 3 << 30, 11 + n, steps, live, hx))


def edm_vectors(out):
    rng = random.Random(5)
    for n in (1, 2, 3, 7, 16, 33):
        pts = [(round(rng.uniform(-100, 100), 3), round(rng.uniform(-100, 100), 3)) for _ in range(n)]
        d = [math.hypot(pts[x][0] - pts[y][0], pts[x][1] - pts[y][1])
             for y in range(n) for x in range(y + 1)]
        out.append("edm %d %s : %s" % (n, " ".join("%g %g" % p for p in pts),
                                       " ".join("%.9g" % v for v in d)))


def write(name, lines):
    with open(os.path.join(OUT, name), "w") as f:
        f.write("# generated by gen_simplex.py from the oracle in shared/reference; do not edit\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    for name, fn in (("simplex_maps.txt", maps_vectors), ("simplex_life.txt", life_vectors),
                     ("simplex_edm.txt", edm_vectors)):
        lines = []
        fn(lines)
        write(name, lines)
        print("%s: %d records" % (name, len(lines)))
