#!/usr/bin/env python3
"""goal.py: issue 9's goal tables over several shm_bench runs.

  python3 bench/shm/goal.py --table decision-table.txt RUN.csv [RUN.csv ...]
        [--coll alltoall] [--metric osu|makespan]

A cell (P, size) shows the ratio to MPI's collective, timed in the same
launch, of the algorithm the given decision table picks there (its
"collective procs bytes algorithm" lines, first match wins; "mpi": MPI's
own, and the cell reads "mpi"), as "median [min-max]" over every run and
both modes (clean, dirty). Bold: the worst measurement is <= 0.5."""
import argparse
import collections
import csv
import statistics


def parse_bytes(t):
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(t[:-1]) * scale[t[-1]] if t[-1] in scale else int(t)


def in_range(spec, v, parse):
    if spec == "*":
        return True
    lo, _, hi = spec.partition("-")
    if not _:
        return parse(lo) == v
    return parse(lo) <= v and (hi == "*" or v <= parse(hi))


def choose(table, coll, p, b):
    for line in open(table):
        f = line.split()
        if len(f) < 4 or f[0].startswith("#") or f[0] != coll:
            continue
        if in_range(f[1], p, int) and in_range(f[2], b, parse_bytes):
            return f[3]
    return "mpi"


def size_name(b):
    for shift, s in ((20, "M"), (10, "K")):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{s}"
    return str(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--coll", default="alltoall")
    ap.add_argument("--metric", default="osu", choices=["osu", "makespan"])
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    ratios = collections.defaultdict(list)
    for run in a.runs:
        with open(run) as f:
            for r in csv.DictReader(f):
                if r["collective"] == a.coll and r["status"] == "ok":
                    k = (int(r["procs"]), int(r["bytes"]), r["algorithm"])
                    ratios[k].append(float(r[f"{a.metric}_ratio_to_mpi"]))
    procs = sorted({k[0] for k in ratios})
    sizes = sorted({k[1] for k in ratios})
    print(f"{a.coll}, {a.metric} ratio to MPI, median [min-max] over runs and modes")
    print("| bytes | " + " | ".join(f"P={p}" for p in procs) + " |")
    print("|---:|" + "---:|" * len(procs))
    for b in sizes:
        row = []
        for p in procs:
            alg = choose(a.table, a.coll, p, b)
            v = ratios.get((p, b, alg))
            if alg == "mpi" or not v:
                row.append(alg if alg == "mpi" else "")
                continue
            cell = f"{statistics.median(v):.2f} [{min(v):.2f}-{max(v):.2f}] {alg.replace('shm_', '')}"
            row.append(f"**{cell}**" if max(v) <= 0.5 else cell)
        print(f"| {size_name(b)} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
