#!/usr/bin/env python3
"""tables.py: markdown tables from shm_bench CSVs (bench/shm/run.sh).

  python3 bench/shm/tables.py CSV [--alg auto] [--metric osu|makespan|bound]

One table per (collective, mode): rows are sizes, columns P; a cell is the
chosen algorithm's ratio to MPI's own collective in the same run (metric
osu, makespan or stream), or MPI's and the algorithm's time over the memory-copy
bound (metric bound: "mpi/alg"). --alg best takes the fastest shm variant
per cell (OSU time), naming it."""
import argparse
import collections
import csv


def size_name(b):
    b = int(b)
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20}M"
    if b >= 1024 and b % 1024 == 0:
        return f"{b >> 10}K"
    return str(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--alg", default="auto")
    ap.add_argument("--metric", default="osu", choices=["osu", "makespan", "stream", "bound"])
    a = ap.parse_args()
    cells = collections.defaultdict(dict)
    for r in csv.DictReader(open(a.csv)):
        if r["status"] != "ok":
            continue
        cells[(r["collective"], r["mode"], int(r["bytes"]), int(r["procs"]))][r["algorithm"]] = r
    colls = sorted({(k[0], k[1]) for k in cells}, key=lambda c: (["alltoall", "allgather", "bcast"].index(c[0]), c[1]))
    for coll, mode in colls:
        procs = sorted({k[3] for k in cells if k[0] == coll and k[1] == mode})
        sizes = sorted({k[2] for k in cells if k[0] == coll and k[1] == mode})
        print(f"\n{coll}, {mode}, {a.metric}" + (f" ({a.alg})" if a.alg else ""))
        print("| bytes | " + " | ".join(f"P={p}" for p in procs) + " |")
        print("|---:|" + "---:|" * len(procs))
        for s in sizes:
            row = []
            for p in procs:
                d = cells.get((coll, mode, s, p), {})
                if a.alg == "best":
                    cands = [(float(r["osu_us"]), n) for n, r in d.items() if n not in ("mpi", "auto")]
                    name = min(cands)[1] if cands else None
                else:
                    name = a.alg
                r = d.get(name)
                if not r:
                    row.append("")
                    continue
                if a.metric == "bound":
                    m = d.get("mpi")
                    row.append(f"{float(m['osu_ratio_to_bound']):.1f}/{float(r['osu_ratio_to_bound']):.1f}")
                else:
                    v = float(r[f"{a.metric}_ratio_to_mpi"])
                    cell = f"{v:.2f}"
                    if a.alg == "best":
                        cell += f" {name.replace('shm_', '')}"
                    row.append(f"**{cell}**" if v <= 0.5 else cell)
            print(f"| {size_name(s)} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
