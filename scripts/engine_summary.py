#!/usr/bin/env python3
# engine_summary.py — the summary of the GPU engine benchmarks: per `sqz bench` JSON in OUT (LABEL.ENGINE.json) kernel ms/step, Gcells/s, floor share, fast/generic speed-ups, OpenCL vs CUDA, live-count agreement.
# usage: scripts/engine_summary.py OUT
import glob, json, os, sys
out = sys.argv[1]
def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except Exception as e:
        return None
rows = {}
for p in sorted(glob.glob(os.path.join(out, "*.json"))):
    label, engine = os.path.basename(p)[:-5].rsplit(".", 1)
    rows[(label, engine)] = load(p)
print("%-28s %-8s %-22s %12s %10s %8s %14s" % ("run", "engine", "layout/map", "kernel ms", "Gcells/s", "floor", "live"))
lives = {}
for (label, engine), j in sorted(rows.items()):
    if j is None:
        print("%-28s %-8s (no JSON: see %s/errors.log)" % (label, engine, out))
        continue
    for r in (j.get("layouts") or []) + (j.get("rows") or []):
        if r.get("status", "ok") != "ok":
            continue
        if "method" in r:  # --backend all: opencl, cuda-mma, cuda-alu (no floor column there)
            name, share = "%s %s" % (r["layout"], r["method"]), None
        else:  # bench fractal layouts, or bench simplex rows (layout/map)
            name, share = r.get("layout", "") + ("/" + r["map"] if "map" in r else ""), r.get("floor_share")
        ks = r.get("kernel_s_per_step", r.get("kernel_s_per_pass")) or 0
        live = r.get("live", r.get("result"))
        print("%-28s %-8s %-22s %12.4f %10.1f %8s %14s" % (label, engine, name, ks * 1e3, (r.get("cells_per_s") or 0) / 1e9,
                                                        "%.3f" % share if share is not None else "-", live))
        lives.setdefault(j.get("domain"), set()).add(live)
print()
for label in sorted({l for l, _ in rows}):
    g, f = rows.get((label, "generic")), rows.get((label, "fast"))
    if not g or not f:
        continue
    ga, fa = g.get("layouts") or g.get("rows") or [], f.get("layouts") or f.get("rows") or []
    for a, b in zip(ga, fa):
        if a.get("status") == "ok" and b.get("status") == "ok" and "method" not in a:
            ka, kb = (a.get("kernel_s_per_step", a.get("kernel_s_per_pass")), b.get("kernel_s_per_step", b.get("kernel_s_per_pass")))
            name = a["layout"] + ("/" + a["map"] if "map" in a else "")
            print("%-28s %-14s fast/generic speed-up %6.2fx  floor %.3f -> %.3f" % (label, name, ka / kb,
                  a.get("floor_share") or 0, b.get("floor_share") or 0))
for label in sorted({l for l, _ in rows if l.endswith("-block")}):
    for engine in ("generic", "fast"):
        j = rows.get((label, engine))
        if not j or "rows" not in j:
            continue
        t = {(r["layout"], r["method"]): r["kernel_s_per_step"] for r in j["rows"] if r.get("status") == "ok"}
        for lay in sorted({l for l, _ in t}):
            ocl = [v for (l, m), v in t.items() if l == lay and "opencl" in m]
            for m in sorted(m for (l, m) in t if l == lay and "cuda" in m):
                if ocl:
                    print("%-28s %-10s %-8s OpenCL speed vs %s: %.2fx (target >= 0.9x)" % (label, lay, engine, m, t[(lay, m)] / ocl[0]))
bad = [d for d, s in lives.items() if len(s - {None}) > 1]
print()
print("live counts: " + ("DIFFER in " + ", ".join(bad) if bad else "every row of each domain agrees"))
