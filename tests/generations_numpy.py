#!/usr/bin/env python3
"""generations_numpy.py — `sqz life` with Golly's Generations rules (Brian's Brain /2/3, Star Wars 345/2/4) against an
independent NumPy implementation on the same domains (a triangle, the Sierpinski triangle and carpet), through --init
and --out .npy, on the cpu backend and, where `sqz devices` lists one, on the default OpenCL device; multi-state .npy
input (states 0..C-1) and the refusal of a state >= C. usage: generations_numpy.py path/to/sqz"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heat_numpy import check, has_opencl, results, sqz, triangle_member  # noqa: E402
from npy_numpy import carpet_member, moore_count  # noqa: E402  the Life oracle's mask and neighbour count

SQZ = sys.argv[1]
RULES = {"/2/3": ({2}, set(), 3), "345/2/4": ({2}, {3, 4, 5}, 4)}  # birth counts, survive counts, states


def sierpinski_member(level):
    """Sierpinski triangle (pattern #./##): (x, y) is a hole if at some base-2 digit x has 1 and y has 0."""
    y, x = np.mgrid[0:2 ** level, 0:2 ** level]
    return (x & ~y) == 0


def generations_step(a, member, rule):
    """One step of a Generations rule: only state 1 counts as a neighbour; 0 is born on a birth count, 1 survives
    on a survive count or becomes 2, a dying state advances and wraps to 0 after states - 1; off the domain 0."""
    birth, survive, states = RULES[rule]
    n = moore_count(a == 1)
    born = np.isin(n, list(birth)).astype(np.uint8)
    live = np.where(np.isin(n, list(survive)), 1, 2)
    out = np.where(a == 0, born, np.where(a == 1, live, (a.astype(np.int32) + 1) % states))
    return np.where(member, out, 0).astype(np.uint8)


def case(at, backend, spec, member, rule, init, steps, layout):
    name = "%s %s %s %s --init %s, %d steps" % (backend or "default backend", spec, layout, rule,
                                                  os.path.basename(init), steps)
    back = ["--backend", backend] if backend else []
    common = [spec, "--rule", rule, "--init", init, "--layout", layout, "--json", "--quiet", *back]
    start, out = at("start.npy"), at("out.npy")
    sqz("life", *common, "--steps", "0", "--out", start)
    j = sqz("life", *common, "--steps", str(steps), "--out", out)
    u0, got = np.load(start), np.load(out)
    check(j["backend"] == (backend or os.environ.get("SQZ_BACKEND") or "opencl"), "%s: ran on %s" % (name, j["backend"]))
    check(got.dtype == np.uint8 and got.shape == member.shape, "%s: uint8 %s" % (name, got.shape))
    want = u0
    for _ in range(steps):
        want = generations_step(want, member, rule)
    check(np.array_equal(got, want), "%s: sqz equals the NumPy rule cell for cell (%d differ; states %s)" %
          (name, int((got != want).sum()), np.bincount(want.ravel(), minlength=RULES[rule][2]).tolist()))
    check(not got[~member].any(), "%s: cells off the domain are 0" % name)
    check(not np.array_equal(want, u0) and (steps > 1 or (want > 1).any()),
          "%s: the steps change the state (and the first makes dying cells)" % name)
    check(j["live"] == int((got != 0).sum()), "%s: live %d counts the non-zero cells" % (name, j["live"]))
    return want


def refusal(at, spec, member, rule):
    """A cell holding C (one more than the last state) exits 2 naming the value and the cell; nothing written."""
    states = RULES[rule][2]
    bad = np.where(member, 1, 0).astype(np.uint8)
    i = int(np.flatnonzero(member)[len(np.flatnonzero(member)) // 3])
    bad.flat[i] = states
    np.save(at("bad.npy"), bad)
    side = member.shape[1]
    p = subprocess.run([SQZ, "life", spec, "--rule", rule, "--init", at("bad.npy"), "--steps", "1", "--out",
                        at("never.npy")], capture_output=True, text=True)
    want = "cell %d (x %d, y %d) holds %d; the cells of rule '%s' are 0 to %d" % (i, i % side, i // side, states, rule,
                                                                               states - 1)
    check(p.returncode == 2 and want in p.stderr, "%s %s: a state %d exits 2 (%d) naming it: %s" % (
        spec, rule, states, p.returncode, p.stderr.strip()))
    check(not os.path.exists(at("never.npy")), "%s %s: nothing written after the refused state" % (spec, rule))


def main():
    domains = (("triangle:40", triangle_member(40)), ("fractal:sierpinski-triangle:6", sierpinski_member(6)),
               ("fractal:sierpinski-carpet:3", carpet_member(3)))
    backends = ["cpu"] + ([None] if has_opencl() else [])
    if backends == ["cpu"]:
        print("no OpenCL device listed by `sqz devices`: the default-backend runs are left out")
    rng = np.random.default_rng(5)
    with tempfile.TemporaryDirectory(prefix="sqz_generations_numpy_") as work:
        def at(name):
            return os.path.join(work, name)
        for spec, member in domains:
            full = sqz("life", spec, "--init", "const:1", "--steps", "0", "--json", "--backend", "cpu", "--out",
                       at("full.npy"))
            check(np.array_equal(np.load(at("full.npy")) != 0, member) and full["live"] == member.sum(),
                  "%s: the NumPy mask is sqz's domain (%d cells)" % (spec, member.sum()))
            for rule in RULES:
                states = RULES[rule][2]
                own = at("own.npy")  # every state 0..C-1, made here
                np.save(own, np.where(member, rng.integers(0, states, member.shape), 0).astype(np.uint8))
                for backend in backends:
                    for steps in (1, 5):
                        case(at, backend, spec, member, rule, "random:0.35:3", steps, "compact")
                    want = case(at, backend, spec, member, rule, own, 3, "bb" if backend else "compact")
                    check(len(np.unique(np.load(own)[member])) == states and want.any(),
                          "%s %s: the own state holds every state and does not die out in 3 steps" % (spec, rule))
                refusal(at, spec, member, rule)
    print("%d passed, %d failed" % (results["passed"], results["failed"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
