#!/usr/bin/env python3
"""walk_dimensions.py — the walk dimension d_w and the spectral dimension d_s of the random walk on sqz's
Sierpinski carpet, Vicsek cross and Sierpinski triangle (cells joined by faces), from `heat` as the walk's master
equation and the observables computed on the device (docs/SCIENCE.md).

A point source u = 1 at the cell c, then `heat` with alpha: u'(x) = (1 - alpha deg x) u(x) + alpha sum_{y~x} u(y),
the master equation of the lazy walk that jumps to each face neighbour with probability alpha. At log-spaced
times the device gives sum u, m2@c = sum u |x - c|^2 and probe@c = u(c): <r^2>(t) = m2 / sum and the return
probability P0(t) = probe / sum. The fit: ln y = a + b ln t + c t^(-1/d_w) + two harmonics of the log-periodic
oscillation (period ln(s^d_w) in ln t), d_w self-consistent; the error is its largest change over sub-windows
(start moved by up to a period, end by half) and variants (1 to 3 harmonics, a second correction t^(-2/d_w)). Beside it, plain fits over whole periods and without the correction.

usage: walk_dimensions.py [RUN ...] [--alpha A] [--backend B] [--device D] [--per-decade N] [--plots DIR]
                          [--json FILE] [--check] [--graph]
  RUN: FRACTAL:LEVEL:STEPS[:TYPE], FRACTAL carpet, vicsek or triangle, TYPE f64 (default) or f32;
       default: carpet:5:20000 vicsek:6:12000 triangle:9:30000 (the small levels, ~1 min on 2 CPU cores).
  --check: exit 1 when an estimate leaves its band (BANDS) or a graph fact (--graph) is not the derived one.
Needs NumPy and the sqz package (PYTHONPATH=python, SQZ_LIBRARY=build/libsqz.so); matplotlib only for --plots.
"""
import argparse
import json
import math
import sys
import time

import numpy as np

import sqz

LN2, LN3, LN5 = math.log(2), math.log(3), math.log(5)
# s: length scale factor, k: copies; src: the source cell of a level of side L (a fixed point of one of the
# similitudes, so its neighbourhood of side s^m is a level-m copy); reach: its distance to the far border.
FRACTALS = {
    "carpet": {"name": "sierpinski-carpet", "s": 3, "k": 8, "src": lambda L: (0, 0), "reach": lambda L: L - 1,
               "exact": None, "lit": {"d_w": 2.097, "d_s": 1.805}},
    "vicsek": {"name": "vicsek-cross", "s": 3, "k": 5, "src": lambda L: ((L - 1) // 2, (L - 1) // 2),
               "reach": lambda L: (L - 1) // 2,
               "exact": {"d_w": math.log(15) / LN3, "d_s": 2 * LN5 / math.log(15)}},
    "triangle": {"name": "sierpinski-triangle", "s": 2, "k": 3, "src": lambda L: (0, 0), "reach": lambda L: L - 1,
                 "exact": {"d_w": math.log(6) / LN2, "d_s": 2 * LN3 / math.log(6)},
                 "gasket": {"d_w": LN5 / LN2, "d_s": 2 * LN3 / LN5}},
}
# --check bands for the small levels: wide enough for their few periods, narrow enough to tell the triangle's
# tree (d_w = log2 6 = 2.585) from the gasket graph (log2 5 = 2.322) and to catch a wrong walk.
BANDS = {"carpet": {"d_w": (1.9, 2.3), "d_s": (1.6, 2.0)},
         "vicsek": {"d_w": (2.3, 2.65), "d_s": (1.05, 1.35)},
         "triangle": {"d_w": (2.45, 2.75), "d_s": (1.1, 1.35)}}
R_MIN = 3.0                      # fit from <r^2> >= R_MIN^2 (the lattice scale) ...
REACH = {"msd": 4.0, "p0": 2.5}  # ... to <r^2> <= (reach / REACH[item])^2 (no trace of the border)


def schedule(steps, per_decade):
    """Log-spaced observation times 1..steps (integers, unique)."""
    n = max(2, int(per_decade * math.log10(max(steps, 10))) + 1)
    return np.unique(np.round(np.geomspace(1, steps, n)).astype(np.int64))


def walk(ctx, fractal, level, steps, dtype, alpha, per_decade):
    """Iterates the master equation from a point source; returns the series and the timings."""
    fr = FRACTALS[fractal]
    dom = ctx.domain("fractal:%s:%d" % (fr["name"], level))
    L = dom.side
    y, x = fr["src"](L)
    items = ["sum", "m2@%d,%d" % (y, x), "probe@%d,%d" % (y, x)]
    t0 = time.perf_counter()
    with dom.field(dtype) as f:
        f.fill_const(0)
        f[y, x] = 1.0
        setup = time.perf_counter() - t0
        rows, done, t1 = [], 0, time.perf_counter()
        for t in schedule(steps, per_decade):
            f.heat(int(t - done), alpha=alpha)
            done = int(t)
            rows.append([t, *f.observe(items)])
        wall = time.perf_counter() - t1
        engine = f.engine[0]
    r = np.array(rows)
    size = 4 if dtype == "f32" else 8
    return {"sqz_bytes": 2 * dom.cells * size, "dense_bytes": 2 * L * L * size,  # old and new state, no mask
            "fractal": fractal, "domain": dom.spec, "level": level, "side": L, "cells": dom.cells, "source": [y, x],
            "reach": fr["reach"](L), "type": dtype, "alpha": alpha, "steps": int(steps), "items": items,
            "t": r[:, 0], "sum": r[:, 1], "msd": r[:, 2] / r[:, 1], "p0": r[:, 3] / r[:, 1],
            "setup_s": setup, "wall_s": wall, "engine": engine, "device": ctx.device_name, "backend": ctx.backend}


def slope(x, y):
    return float(np.polyfit(x, y, 1)[0])


def whole_periods(x, y, lam):
    """Plain least-squares slopes over windows of m whole periods lam (in ln t), m as large as lets 8 starts
    lam/8 apart fit: every phase of the oscillation starts a window once, so the first harmonic's bias
    (+-6c/(pi m^2 lam) for amplitude c) cancels in the mean. (mean, half range of the 8) or None."""
    m = int(math.floor((x[-1] - x[0]) / lam - 7 / 8))
    if m < 1:
        return None
    starts = x[0] + lam / 8 * np.arange(8)
    sl = [slope(x[(x >= a) & (x <= a + m * lam)], y[(x >= a) & (x <= a + m * lam)]) for a in starts]
    return float(np.mean(sl)), float(np.ptp(sl) / 2)


def model_fit(x, y, lam, theta, corrections=1, harmonics=2):
    """ln y = a + b ln t + sum_{j<=corrections} c_j t^(-j theta) + sum_{k<=harmonics} (c_k cos + d_k sin)(2 pi k
    ln t / lam): (b, residual sum of squares)."""
    cols = [np.ones_like(x), x] + [np.exp(-j * theta * x) for j in range(1, corrections + 1)]
    for k in range(1, harmonics + 1):
        cols += [np.cos(2 * np.pi * k * x / lam), np.sin(2 * np.pi * k * x / lam)]
    A = np.stack(cols, 1)
    coef = np.linalg.lstsq(A, y, rcond=None)[0]
    return float(coef[1]), float(np.sum((A @ coef - y) ** 2))


def self_consistent_dw(x, y, ls, dw):
    """d_w from the MSD with the model's period lam = d_w ln s and correction t^(-1/d_w) tied to it: the
    fixed point of d_w -> 2 / b."""
    for _ in range(30):
        new = 2 / model_fit(x, y, dw * ls, 1 / dw)[0]
        if abs(new - dw) < 1e-7:
            break
        dw = new
    return new


# the model's variants whose spread enters the error: (corrections, harmonics)
VARIANTS = ((1, 2), (1, 1), (1, 3), (2, 2))


def windows(x, lam):
    """Sub-windows of the fit range: its start moved by 0, 1/2 and 1 period, its end by 0 and 1/2 period, where
    at least 1.5 periods remain."""
    out = []
    for a in (0, 0.5, 1.0):
        for b in (0, 0.5):
            lo, hi = x[0] + a * lam, x[-1] - b * lam
            if hi - lo >= 1.5 * lam:
                out.append((lo, hi))
    return out


def fit_range(run, key):
    """ln t and ln y from the lattice scale (<r^2> >= R_MIN^2) to where the border is not seen: <r^2> up to
    (reach / REACH[key])^2 (measured: the series equals the next level's to 1e-5 for the MSD, 1e-8 for P0)."""
    msd = run["msd"]
    ok = (run["t"] >= 1) & (msd >= R_MIN ** 2) & (msd <= (run["reach"] / REACH[key]) ** 2)
    return np.log(run["t"][ok]), np.log(run[key][ok])


def estimate(run):
    """d_w (from the MSD) and d_s (from P0): the model fit over the whole range, its error the largest change over
    the sub-windows; beside it the plain fits over whole periods and the log-periodic fit without the correction."""
    fr = FRACTALS[run["fractal"]]
    ls = math.log(fr["s"])
    xm, ym = fit_range(run, "msd")
    if len(xm) < 16:
        raise SystemExit("walk_dimensions: %s: too few times in the fit window (raise the steps)" % run["domain"])
    dw = self_consistent_dw(xm, ym, ls, 2 / slope(xm, ym))
    lam = dw * ls
    out = {"lam": lam, "t_fit": [float(math.exp(xm[0])), float(math.exp(xm[-1]))], "periods": (xm[-1] - xm[0]) / lam}
    for key, conv in (("msd", lambda b: 2 / b), ("p0", lambda b: -2 * b)):
        x, y = fit_range(run, key)
        value = conv(model_fit(x, y, lam, 1 / dw)[0])
        subs = [conv(model_fit(x[(x >= lo) & (x <= hi)], y[(x >= lo) & (x <= hi)], lam, 1 / dw, nc, nh)[0])
                for lo, hi in windows(x, lam) for nc, nh in VARIANTS]
        wp = whole_periods(x, y, lam)
        out["d_w" if key == "msd" else "d_s"] = {
            "value": value, "err": max(abs(v - value) for v in subs) if len(subs) > 1 else float("nan"),
            "windows": len(subs) // len(VARIANTS), "periods": (x[-1] - x[0]) / lam, "t_fit": [float(math.exp(x[0])), float(math.exp(x[-1]))],
            "whole_periods": conv(wp[0]) if wp else None,
            "whole_periods_spread": abs(conv(wp[0] + wp[1]) - conv(wp[0] - wp[1])) / 2 if wp else None,
            "log_periodic": conv(model_fit(x, y, lam, 0, corrections=0)[0])}
    out["d_w_from_period"] = free_period(xm, ym, lam, ls)
    out["d_s_einstein"] = 2 * math.log(fr["k"]) / ls / out["d_w"]["value"]
    return out


def free_period(x, y, lam, ls):
    """d_w read off the oscillation's period alone (the period that fits the MSD best, scanned +-25 % with the
    rest of the model), or None when the range holds fewer than two periods."""
    if x[-1] - x[0] < 2 * lam:
        return None
    grid = np.linspace(0.75 * lam, 1.25 * lam, 201)
    rss = [model_fit(x, y, g, ls / g)[1] for g in grid]
    return float(grid[int(np.argmin(rss))] / ls)


def graph_facts(ctx, fractal, level):
    """The face graph at a small level, from the domain's mask: cells, edges, connected, a tree, and the graph
    distance from the source to the far corners (the resistances of a tree)."""
    fr = FRACTALS[fractal]
    dom = ctx.domain("fractal:%s:%d" % (fr["name"], level))
    m, L = dom.mask(), dom.side
    edges = int(np.sum(m[1:, :] & m[:-1, :]) + np.sum(m[:, 1:] & m[:, :-1]))
    dist = np.full(m.shape, -1, np.int64)
    src = fr["src"](L)
    dist[src] = 0
    front, d = np.zeros_like(m), 0
    front[src] = True
    while front.any():  # breadth-first search by dilation over face neighbours
        d += 1
        nb = np.zeros_like(m)
        nb[1:, :] |= front[:-1, :]
        nb[:-1, :] |= front[1:, :]
        nb[:, 1:] |= front[:, :-1]
        nb[:, :-1] |= front[:, 1:]
        front = nb & m & (dist < 0)
        dist[front] = d
    V = int(m.sum())
    far = {"(L-1,0)": int(dist[L - 1, 0]), "(L-1,L-1)": int(dist[L - 1, L - 1]),
           "(0,(L-1)/2)": int(dist[0, (L - 1) // 2])}
    return {"fractal": fractal, "level": level, "cells": V, "edges": edges, "connected": bool((dist[m] >= 0).all()),
            "tree": bool((dist[m] >= 0).all() and edges == V - 1), "eccentricity": int(dist.max()), "dist": far}


def graph_expected(fractal, n):
    """What docs/SCIENCE.md derives for level n: trees and their tip-to-tip distances (resistances)."""
    if fractal == "triangle":  # d(A,B) = 2^n - 1 (left column), d(A,C) = 2^(n+1) - 2
        return {"tree": True, "edges": 3 ** n - 1, "dist": {"(L-1,0)": 2 ** n - 1, "(L-1,L-1)": 2 ** (n + 1) - 2}}
    if fractal == "vicsek":  # centre to tip (3^n - 1) / 2, a tree of 5^n - 1 edges
        return {"tree": True, "edges": 5 ** n - 1, "dist": {"(0,(L-1)/2)": (3 ** n - 1) // 2}}
    return {"tree": False}


def plot(run, est, folder):
    """walk_FRACTAL_LEVEL.png: the series, the series over the fitted power laws (the log-periodic oscillation),
    the local slopes. Skipped (with a note) without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("  (no matplotlib: no plot; apt-get install python3-matplotlib)")
        return None
    t, msd, p0 = run["t"][1:], run["msd"][1:], run["p0"][1:]
    dw, ds = est["d_w"]["value"], est["d_s"]["value"]
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.2))
    ax[0].loglog(t, msd, ".-", ms=3, label="<r²>(t)")
    ax[0].loglog(t, p0, ".-", ms=3, label="P₀(t)")
    ax[1].semilogx(t, msd / t ** (2 / dw) / np.median(msd / t ** (2 / dw)), ".-", ms=3, label="<r²> / t^(2/d_w)")
    ax[1].semilogx(t, p0 * t ** (ds / 2) / np.median(p0 * t ** (ds / 2)), ".-", ms=3, label="P₀ · t^(d_s/2)")
    lt = np.log(t)
    mid = np.sqrt(t[1:] * t[:-1])
    ax[2].semilogx(mid, 2 / (np.diff(np.log(msd)) / np.diff(lt)), ".", ms=3, label="local d_w")
    ax[2].semilogx(mid, -2 * np.diff(np.log(p0)) / np.diff(lt), ".", ms=3, label="local d_s")
    ax[2].set_ylim(0.5, 3.5)
    for a in ax:
        for e in est["t_fit"]:
            a.axvline(e, color="grey", lw=0.8, ls="--")
        a.set_xlabel("t (steps)")
        a.legend(fontsize=8)
    ax[2].axhline(dw, color="C0", lw=0.8)
    ax[2].axhline(ds, color="C1", lw=0.8)
    fig.suptitle("%s, %s: d_w = %.3f ± %.3f, d_s = %.3f ± %.3f (MSD fit between the dashed lines)"
                 % (run["domain"], run["type"], dw, est["d_w"]["err"], ds, est["d_s"]["err"]))
    fig.tight_layout()
    path = "%s/walk_%s_%d.png" % (folder, run["fractal"], run["level"])
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def reference(fractal):
    fr = FRACTALS[fractal]
    if fr["exact"]:
        return "exact %.4f / %.4f" % (fr["exact"]["d_w"], fr["exact"]["d_s"])
    return "literature %.3f / %.3f" % (fr["lit"]["d_w"], fr["lit"]["d_s"])


def in_band(fractal, est):
    bad = []
    for key, (lo, hi) in BANDS[fractal].items():
        if not lo <= est[key]["value"] <= hi:
            bad.append("%s %s = %.4f outside %.2f..%.2f" % (fractal, key, est[key]["value"], lo, hi))
    return bad


def check_graph(g):
    want, bad = graph_expected(g["fractal"], g["level"]), []
    if not g["connected"]:
        bad.append("%s level %d: the face graph is not connected" % (g["fractal"], g["level"]))
    for key in ("tree", "edges"):
        if key in want and g[key] != want[key]:
            bad.append("%s level %d: %s = %s, derived %s" % (g["fractal"], g["level"], key, g[key], want[key]))
    for key, v in want.get("dist", {}).items():
        if g["dist"][key] != v:
            bad.append("%s level %d: distance to %s = %d, derived %d" % (g["fractal"], g["level"], key, g["dist"][key], v))
    return bad


def parse_run(text):
    parts = text.split(":")
    if len(parts) not in (3, 4) or parts[0] not in FRACTALS:
        raise SystemExit("walk_dimensions: bad run '%s' (FRACTAL:LEVEL:STEPS[:TYPE], FRACTAL one of %s)"
                         % (text, ", ".join(FRACTALS)))
    dtype = parts[3] if len(parts) == 4 else "f64"
    if dtype not in ("f32", "f64") or not parts[1].isdigit() or not parts[2].isdigit() or int(parts[2]) < 10:
        raise SystemExit("walk_dimensions: bad run '%s' (LEVEL, STEPS >= 10 integers, TYPE f32 or f64)" % text)
    return parts[0], int(parts[1]), int(parts[2]), dtype


def fmt(v):
    return "-" if v is None else "%.4f" % v


def report(run, est):
    print("%-28s %-4s %6d steps  %7.2f s (+%.2f s set-up, %.3g cell-steps/s, %s)"
          % (run["domain"], run["type"], run["steps"], run["wall_s"], run["setup_s"],
             run["cells"] * run["steps"] / run["wall_s"], run["engine"]))
    print("  memory (two states): sqz compact %.3g GB, a dense %d x %d bounding box %.3g GB; period ln(s^d_w) = %.3f"
          " in ln t; sum - 1 = %.1e at the end" % (run["sqz_bytes"] / 1e9, run["side"], run["side"],
                                                  run["dense_bytes"] / 1e9, est["lam"], run["sum"][-1] - 1))
    for key in ("d_w", "d_s"):
        e = est[key]
        print("  %s = %.4f ± %.4f  (t = %.0f..%.0f, %.2f periods, %d windows; plain fit over whole periods %s ± %s,"
              " log-periodic without the correction %s)"
              % (key, e["value"], e["err"], e["t_fit"][0], e["t_fit"][1], e["periods"], e["windows"],
                 fmt(e["whole_periods"]), fmt(e["whole_periods_spread"]), fmt(e["log_periodic"])))
    print("  d_w from the oscillation's period %s; d_s = 2 d_f / d_w = %.4f; %s"
          % (fmt(est["d_w_from_period"]), est["d_s_einstein"], reference(run["fractal"])))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="*", default=["carpet:5:20000", "vicsek:6:12000", "triangle:9:30000"])
    ap.add_argument("--alpha", type=float, default=0.2)
    ap.add_argument("--backend")
    ap.add_argument("--device")
    ap.add_argument("--per-decade", type=int, default=40)
    ap.add_argument("--plots")
    ap.add_argument("--json")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--graph", action="store_true", help="check the face graphs' derived facts at small levels")
    a = ap.parse_args(argv)
    if not 0 < a.alpha <= 0.25:
        raise SystemExit("walk_dimensions: --alpha %g is not in (0, 1/4] (the walk's jump probability)" % a.alpha)
    runs = [parse_run(r) for r in a.runs]
    failures, results = [], {"runs": [], "graphs": []}
    with sqz.Context(a.backend, a.device) as ctx:
        print("device: %s (%s)" % (ctx.device_name, ctx.backend))
        if a.graph:
            for fractal, level in (("carpet", 4), ("vicsek", 5), ("triangle", 7)):
                g = graph_facts(ctx, fractal, level)
                print("graph %-8s level %d: %d cells, %d edges, connected %s, tree %s, distances %s"
                      % (fractal, level, g["cells"], g["edges"], g["connected"], g["tree"], g["dist"]))
                failures += check_graph(g)
                results["graphs"].append(g)
        for fractal, level, steps, dtype in runs:
            run = walk(ctx, fractal, level, steps, dtype, a.alpha, a.per_decade)
            est = estimate(run)
            report(run, est)
            if abs(run["sum"][-1] - 1) > (1e-10 if dtype == "f64" else 1e-3):
                failures.append("%s: the total is %.17g, not 1" % (run["domain"], run["sum"][-1]))
            if a.check:
                failures += in_band(fractal, est)
            if a.plots:
                est["plot"] = plot(run, est, a.plots)
            ser = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in run.items()}
            results["runs"].append({"run": ser, "estimate": est})
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1)
    for f in failures:
        print("FAIL " + f)
    print("walk_dimensions: %s" % ("FAILED" if failures else "all estimates in their bands" if a.check else "done"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
