#!/usr/bin/env python3
"""ab_summary.py: two builds' cz_/MPI side by side, from ab_libs.sh's
dispatch-a.csv and dispatch-b.csv.

    python3 bench/dispatch/ab_summary.py OUT [--noise 0.05] [--csv FILE]

Per (collective, P, bytes, mode): for each build the median over launches
of the launch's median cz_/MPI ratio and its range, counting only launches
whose MPI/MPI control is within 1 +- noise (as summary.py does), and how
many counted; then the same over all launches, and the load range."""
import argparse
import csv
import statistics
from collections import defaultdict


def rows(path):
    out = defaultdict(list)
    for r in csv.DictReader(open(path)):
        if r["mode"] == "check_failed":
            continue
        out[(r["coll"], int(r["procs"]), int(r["bytes"]), r["mode"])].append(r)
    return out


def judge(rs, noise):
    ratios = [float(r["ratio_median"]) for r in rs]
    kept = [float(r["ratio_median"]) for r in rs
            if abs(float(r["control_ratio_median"] or 1) - 1) <= noise]
    def fmt(v):
        return (f"{statistics.median(v):.3f} [{min(v):.2f}-{max(v):.2f}]"
                if v else "-")
    return fmt(kept), len(kept), fmt(ratios), len(ratios)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--noise", type=float, default=0.05)
    ap.add_argument("--csv")
    a = ap.parse_args()
    sides = {s: rows(f"{a.out}/dispatch-{s}.csv") for s in "ab"}
    head = ["coll", "P", "bytes", "mode", "a_counted", "a_n", "b_counted", "b_n",
            "a_all", "b_all", "load"]
    table = []
    for key in sorted(set(sides["a"]) | set(sides["b"])):
        ja = judge(sides["a"].get(key, []), a.noise)
        jb = judge(sides["b"].get(key, []), a.noise)
        loads = [float(r["load_before"]) for s in "ab" for r in sides[s].get(key, [])]
        table.append([*key, ja[0], ja[1], jb[0], jb[1], f"{ja[2]} ({ja[3]})",
                      f"{jb[2]} ({jb[3]})",
                      f"{min(loads):.1f}-{max(loads):.1f}" if loads else ""])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for t in table:
        print("| " + " | ".join(str(x) for x in t) + " |")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(table)


if __name__ == "__main__":
    main()
