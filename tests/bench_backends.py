#!/usr/bin/env python3
# bench_backends.py — `sqz bench fractal|simplex --backend opencl,cpu --json` on small domains: both
# backends' reports in one run, one ratio per row, each ratio equal to the runs' own times, the same
# results on both backends; the fractal run measures each backend's copy bandwidth and floor shares,
# the simplex runs skip it (--no-copy-test). No timing thresholds. usage: bench_backends.py path/to/sqz
import json
import subprocess
import sys

sqz = sys.argv[1]
fails = 0


def run(*args):
    p = subprocess.run([sqz, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b))


def check(name, args, rows_key, row_name, result_key, per_step_key, floor=True):
    global fails
    rc, out, err = run(*args, "--backend", "opencl,cpu", "--json", *([] if floor else ["--no-copy-test"]))
    try:
        assert rc == 0, f"exit status {rc}: {err[:600]}"
        d = json.loads(out)
        assert d["backends"] == ["opencl", "cpu"], d["backends"]
        runs = d["runs"]
        assert len(runs) == 2 and [r["backend"] for r in runs] == ["opencl", "cpu"], runs
        rows = [{row_name(r): r for r in run_[rows_key]} for run_ in runs]
        for r, run_ in zip(rows, runs):
            assert (run_["copy_bandwidth_bytes_per_s"] > 0) == floor, run_
            assert r and all(x["status"] == "ok" and ("floor_share" in x) == floor for x in r.values()), r
            assert all(x.get("floor_share", 1) > 0 for x in r.values()), r
        assert rows[0].keys() == rows[1].keys()
        ratios = {x["row"]: x for x in d["ratios"]}
        assert ratios.keys() == rows[0].keys(), (ratios.keys(), rows[0].keys())
        for row, x in ratios.items():
            a, b = rows[0][row], rows[1][row]
            assert x["backend"] == "opencl" and x["vs"] == "cpu", x
            assert close(x["kernel_s_per_step"], a[per_step_key]), (x, a)
            assert close(x["vs_kernel_s_per_step"], b[per_step_key]), (x, b)
            assert close(x["speed_ratio"], b[per_step_key] / a[per_step_key]), x
            assert x["same_result"] is True and a[result_key] == b[result_key], (x, a, b)
        print(f"ok: {name}")
    except (AssertionError, KeyError, ValueError) as e:
        print(f"FAIL: {name}: {e!r}\n{out[:600]}")
        fails += 1


fr = ["bench", "fractal", "--domain", "fractal:sierpinski-triangle:10", "--layouts", "compact,block:4,bb", "--steps", "2"]
check("fractal", fr, "layouts", lambda r: r["layout"], "live", "kernel_s_per_step")
for dom in ["triangle:301", "tetrahedron:60"]:
    sx = ["bench", "simplex", "--domain", dom, "--maps", "bb,had" if dom.startswith("tri") else "bb,had3", "--steps", "2"]
    check("simplex " + dom, sx, "rows", lambda r: r["layout"] + "/" + r["map"], "result", "kernel_s_per_pass", False)

rc, out, err = run("bench", "fractal", "--domain", "fractal:sierpinski-triangle:4", "--backend", "opencl,,cpu")
if rc != 2 or "--backend" not in err:
    print(f"FAIL: an empty backend in the list: exit status {rc}, {err[:300]}")
    fails += 1
rc, out, err = run("bench", "fractal", "--domain", "fractal:sierpinski-triangle:4", "--backend", "cpu", "--json", "--steps", "1")
if rc != 0 or "runs" in json.loads(out or "{}"):
    print(f"FAIL: one backend keeps the one-backend report: exit status {rc}, {out[:300]}")
    fails += 1
print(f"{fails} failure(s)")
sys.exit(1 if fails else 0)
