"""bench_best.py — the best kernel time per row of many `sqz bench --json` files, for the A/B benchmark scripts (gpu_ab.sh, gpu_swar_word.sh)."""
import glob
import json
import os


def best_rows(out, pattern, kind_of, backend=None):
    """Over the files out/pattern: {(row, kind): (kernel s per step, floor share)} with the smallest time, and
    {row: set of live counts}; row = (domain, backend, layout[/map]); kind_of(file name) names the run kind;
    backend, when given, keeps only that backend's rows."""
    best, live = {}, {}
    for path in sorted(glob.glob(os.path.join(out, pattern))):
        kind = kind_of(os.path.basename(path))
        try:
            d = json.load(open(path))
        except ValueError:
            print(f"{path}: no JSON (see errors.log)")
            continue
        for run in d.get("runs", [d]):
            be = run.get("backend", "opencl")
            if backend and be != backend:
                continue
            for r in run.get("layouts") or run.get("rows") or []:
                if r.get("status") != "ok":
                    continue
                row = (run["domain"], be, r["layout"] + ("/" + r["map"] if r.get("map") else ""))
                k = r.get("kernel_s_per_step", r.get("kernel_s_per_pass"))
                if (row, kind) not in best or k < best[(row, kind)][0]:
                    best[(row, kind)] = (k, r.get("floor_share", float("nan")))
                live.setdefault(row, set()).add(r.get("live", r.get("result", run.get("live"))))
    return best, live
