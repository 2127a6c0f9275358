"""sweep_bits_lanes.py — random user fractals, rules (B0 ones included), step counts and SQZ_TEMPORAL: `sqz life` in layout bits by lanes (SQZ_BITS_STEP=lanes, OpenCL) against layout compact on the cpu backend, file for file."""
# usage: python3 scripts/sweep_bits_lanes.py SEED RUNS [SQZ] [MAX_SIDE]   (SQZ: default build/sqz; MAX_SIDE: 4096)
# Prints one line a run (OK, DIFF, or ERR where exactly one side fails) with what reruns it, then the
# counts; exit 1 on any DIFF or ERR. On a GPU (48 KiB local memory) the lanes are small sub-tiles,
# several a storage tile, which PoCL's large local memory does not reach; where no plan fits, the
# step falls back to the boxes and the run still passes (the CLI does not say which step ran). An .npy
# is the embedded square, s^R x s^R bytes however few the cells: MAX_SIDE caps s^R (4096: 16 MiB a file).
import math
import os
import random
import subprocess
import sys
import tempfile

RULES = ["B3/S23", "B36/S23", "B0123478/S34678", "B1357/S1357", "B2/S", "B0/S8", "B01/S", "B0/S012345678"]


def pattern(rng):
    """A random s x s pattern, s = 2, 3 or 4, with at least one cell and one hole; its cell count k."""
    s = rng.choice([2, 3, 3, 4, 4])
    while True:
        cells = [rng.random() < 0.6 for _ in range(s * s)]
        if 0 < sum(cells) < s * s:
            break
    rows = ("".join("#" if cells[y * s + x] else "." for x in range(s)) for y in range(s))
    return "/".join(rows), sum(cells)


def case(rng, max_side):
    """A random run: the domain spec, rule, steps, SQZ_TEMPORAL and seed (levels biased to the largest)."""
    pat, k = pattern(rng)
    s = pat.index("/")
    rmax = max(1, int(math.log(max_side) / math.log(s) + 1e-9))
    r = rmax - rng.randrange(min(4, rmax)) if rng.random() < 0.7 else rng.randint(1, rmax)
    rule = rng.choice(RULES)
    if rng.random() < 0.3:
        rule = "B%s/S%s" % tuple("".join(str(i) for i in range(9) if rng.random() < 0.3) for _ in range(2))
    return f"fractal:{pat}:{r}", rule, rng.randint(1, 17), rng.randint(1, 8), rng.randint(1, 10**6)


def run_pair(sqz, tmp, spec, rule, steps, temporal, seed):
    """Both runs of a case: OK, DIFF or ERR (one side failed; both failing, as on a refused domain, is OK)."""
    common = [spec, "--steps", str(steps), "--rule", rule, "--init", f"random:0.4:{seed}", "--quiet"]
    a, b = os.path.join(tmp, "lanes.npy"), os.path.join(tmp, "compact.npy")
    env = dict(os.environ, SQZ_BITS_STEP="lanes", SQZ_TEMPORAL=str(temporal))
    ra = subprocess.run([sqz, "life"] + common + ["--layout", "bits", "--out", a], env=env, capture_output=True)
    rb = subprocess.run([sqz, "life"] + common + ["--layout", "compact", "--backend", "cpu", "--out", b],
                        capture_output=True)
    if ra.returncode or rb.returncode:
        return "OK" if ra.returncode and rb.returncode else "ERR"
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return "OK" if fa.read() == fb.read() else "DIFF"


def main():
    seed, runs = int(sys.argv[1]), int(sys.argv[2])
    sqz = sys.argv[3] if len(sys.argv) > 3 else "build/sqz"
    max_side = int(sys.argv[4]) if len(sys.argv) > 4 else 4096
    rng, counts = random.Random(seed), {"OK": 0, "DIFF": 0, "ERR": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            spec, rule, steps, temporal, s = case(rng, max_side)
            res = run_pair(sqz, tmp, spec, rule, steps, temporal, s)
            counts[res] += 1
            print(f"{res} SQZ_TEMPORAL={temporal} {spec} --steps {steps} --rule {rule} --init random:0.4:{s}",
                  flush=True)
    print(" ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if counts["DIFF"] or counts["ERR"] else 0


if __name__ == "__main__":
    sys.exit(main())
