#!/usr/bin/env python3
# parts_scaling.py — the communication model of docs/SCALING.md: `sqz info DOMAIN --parts P --json` per
# domain and part count, then the projected step efficiency per link model (rates are parameters).
# usage: scripts/parts_scaling.py path/to/sqz [halo|efficiency]
import json
import subprocess
import sys

SQZ = sys.argv[1] if len(sys.argv) > 1 else "build/sqz"
WHAT = sys.argv[2] if len(sys.argv) > 2 else "halo"

# Assumptions, to be replaced by measured rates (see docs/SCALING.md): step rate of one H200 per
# family (measured, docs/BENCHMARKS.md run 4), link bandwidth per GPU and direction, cost per message.
RATE = {"fractal": 1.44e11, "triangle": 1.58e11, "tetrahedron": 7.2e10}  # cells/s, Life, compact, 1 B/cell
LINKS = [  # name, bytes/s per GPU and direction, seconds per message
    ("NVLink 4 (H200 SXM)", 450e9, 10e-6),
    ("PCIe 5 x16", 55e9, 10e-6),
    ("IB NDR 400, GPU-aware MPI", 50e9, 20e-6),
]


def info(domain, parts):
    out = subprocess.run([SQZ, "info", domain, "--parts", str(parts), "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def family(domain):
    return domain.split(":")[0]


def halo_table(rows):
    print("| domain | P | parts by | cells per part (max) | halo cells per part (max) | total | "
          "halo / cells (largest part) | bytes/step per part: 1 B, 1 bit | messages |")
    print("|---|---|---|---|---|---|---|---|---|")
    for domain, counts in rows:
        for p in counts:
            v = info(domain, p)
            by = f"replicas, j = {v['level']} ({v['replicas']})" if v["kind"] == "replicas" else "bands"
            print(f"| {domain} | {p} | {by} | {v['cells_max']:.3e} | {v['halo_max']} | {v['halo_total']} | "
                  f"{v['halo_ratio_max']:.2e} | {v['halo_bytes_max']}, {v['halo_bit_bytes_max']} | "
                  f"{v['messages']} |")


def efficiency_table(rows):
    # E = (mean / max cells per GPU) * t_comp / (t_comp + t_comm), no overlap of the exchange and the step;
    # t_comp = the largest part's cells / rate, t_comm = messages into one part * latency + its halo bytes / link.
    print("| domain | GPUs | cells per GPU (max) | compute ms/step | balance | " +
          " | ".join(n for n, _, _ in LINKS) + " |")
    print("|---|---|---|---|---|" + "---|" * len(LINKS))
    for domain, counts in rows:
        for p in counts:
            v = info(domain, p)
            t_comp = v["cells_max"] / RATE[family(domain)]
            balance = v["cells_mean"] / v["cells_max"]
            cells = []
            for _, bw, lat in LINKS:
                t_comm = v["sources_max"] * lat + v["halo_bytes_max"] / bw
                cells.append(f"{balance * t_comp / (t_comp + t_comm):.3f}")
            print(f"| {domain} | {p} | {v['cells_max']:.3e} | {t_comp * 1e3:.3g} | {balance:.3f} | " +
                  " | ".join(cells) + " |")


P = [2, 8, 64, 128, 1024]
if WHAT == "halo":
    halo_table([(f"fractal:sierpinski-triangle:{r}", P) for r in (21, 22, 23, 24)] +
               [("fractal:sierpinski-carpet:12", P), ("fractal:vicsek-cross:16", P),
                ("triangle:46341", P), ("tetrahedron:2048", P)])
else:
    G = [8, 64, 128, 512, 1024]
    efficiency_table([("fractal:sierpinski-triangle:21", [2]), ("fractal:sierpinski-triangle:24", G),
                      ("fractal:sierpinski-carpet:12", G), ("fractal:vicsek-cross:16", G),
                      ("triangle:1000000", G), ("tetrahedron:10000", G)])
