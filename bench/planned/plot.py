#!/usr/bin/env python3
"""plot.py: SVG charts of planned_bench CSVs (bench/planned/run.sh).

    python3 bench/planned/plot.py OUT_DIR/forced.csv [OUT_DIR/table.csv ...]

One SVG per (csv, pattern, P): median time of each variant relative to
MPI_Alltoallv in the same run (log scale, 1.0 = MPI; the issue's goal 0.5 is
drawn too), one line per (variant, simulated node size). Standard library
only."""
import csv
import math
import os
import sys
from collections import defaultdict

COLORS = {"plan": "#1f77b4", "cached": "#2ca02c", "two_phase": "#ff7f0e",
          "auto": "#9467bd"}
DASH = {2: "", 4: "6,3", 8: "2,3"}
W, H, L, R, T, B = 640, 360, 60, 150, 30, 50


def ypos(ratio, lo, hi):
    return T + (H - T - B) * (math.log(hi) - math.log(ratio)) / (math.log(hi) - math.log(lo))


def chart(title, sizes, lines, path):
    lo, hi = 0.1, 20.0
    xs = {n: L + (W - L - R) * i / max(1, len(sizes) - 1) for i, n in enumerate(sizes)}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L}" y="18" font-size="13">{title}</text>']
    for r in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20):
        y = ypos(r, lo, hi)
        stroke = "#000" if r == 1 else ("#c00" if r == 0.5 else "#ddd")
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{y:.1f}" y2="{y:.1f}" stroke="{stroke}"/>')
        out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{r}</text>')
    for n, x in xs.items():
        out.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">'
               f'{"doubles per pair" if "pure" in title else "FFT grid n (n^3 complex)"}</text>')
    out.append(f'<text x="14" y="{(T + H - B) / 2}" transform="rotate(-90 14 {(T + H - B) / 2})" '
               f'text-anchor="middle">time / MPI_Alltoallv</text>')
    ly = T
    for (variant, k), pts in sorted(lines.items()):
        color = COLORS.get(variant, "#444")
        poly = " ".join(f"{xs[n]:.1f},{ypos(min(max(r, lo), hi), lo, hi):.1f}"
                        for n, r in sorted(pts) if n in xs)
        out.append(f'<polyline points="{poly}" fill="none" stroke="{color}" '
                   f'stroke-width="2" stroke-dasharray="{DASH.get(k, "")}"/>')
        out.append(f'<line x1="{W - R + 10}" x2="{W - R + 35}" y1="{ly}" y2="{ly}" stroke="{color}" '
                   f'stroke-width="2" stroke-dasharray="{DASH.get(k, "")}"/>')
        out.append(f'<text x="{W - R + 40}" y="{ly + 4}">{variant}, node {k}</text>')
        ly += 16
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    for path in sys.argv[1:]:
        mode = os.path.splitext(os.path.basename(path))[0]
        groups = defaultdict(lambda: defaultdict(list))
        sizes = defaultdict(set)
        with open(path) as f:
            for row in csv.DictReader(f):
                if row["variant"] in ("mpi", "plan_create", "key_hash"):
                    continue
                key = (row["pattern"], int(row["procs"]))
                n = int(row["n"])
                sizes[key].add(n)
                groups[key][(row["variant"], int(row["node_size"]))].append(
                    (n, float(row["ratio_to_mpi"])))
        for (pattern, p), lines in groups.items():
            out = os.path.join(os.path.dirname(path), f"{mode}-{pattern}-p{p}.svg")
            chart(f"{mode}: {pattern}, P = {p} (median of 7, same run)",
                  sorted(sizes[(pattern, p)]), lines, out)
            print("wrote", out)


if __name__ == "__main__":
    main()
