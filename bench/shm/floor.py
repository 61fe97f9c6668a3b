#!/usr/bin/env python3
"""floor.py: how close any algorithm can come to the MPI library on this
machine, and how close ours come to that floor.

  python3 bench/shm/floor.py RUN.csv [RUN.csv ...] [--coll alltoall]

The runs must include shm_bench's "sync_floor" (run.sh: SPECS with
COLL:mpi,...,sync_floor). sync_floor moves no data: every rank raises a
flag and waits for the flags it depends on, the cheapest wait known here
(spin, then yield). Every rank's result of an alltoall, allgather or
allreduce depends on every rank's data, and a bcast's on the root's, so no
algorithm of that collective returns earlier than that wait does.

Per (P, size), median [min-max] over runs and modes (clean, dirty), both
from the same launch:
  floor: sync_floor's OSU latency / MPI's. A cell above 0.5 is a goal of
         0.5x MPI that no algorithm can meet on this machine, whatever its
         copies cost.
  ours:  the best of our algorithms (every algorithm in the run but mpi,
         sync_floor and auto) / sync_floor: the price of its copies and
         bookkeeping above the bare wait."""
import argparse
import collections
import csv
import statistics


def cell(values):
    if not values:
        return ""
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def table(title, out, procs, sizes):
    print(title)
    print("| bytes | " + " | ".join(f"P={p}" for p in procs) + " |")
    print("|---:|" + "---:|" * len(procs))
    for b in sizes:
        print(f"| {b} | " + " | ".join(cell(out.get((p, b))) for p in procs) + " |")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--coll", default="alltoall")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    floor = collections.defaultdict(list)
    ours = collections.defaultdict(list)
    for run in a.runs:
        lat = collections.defaultdict(dict)
        with open(run) as f:
            for r in csv.DictReader(f):
                if r["collective"] == a.coll and r["status"] == "ok":
                    key = (int(r["procs"]), int(r["bytes"]), r["mode"])
                    lat[key][r["algorithm"]] = float(r["osu_us"])
        for (p, b, _), algs in lat.items():
            if "mpi" not in algs or "sync_floor" not in algs:
                continue
            floor[(p, b)].append(algs["sync_floor"] / algs["mpi"])
            mine = [t for alg, t in algs.items() if alg not in ("mpi", "sync_floor", "auto")]
            if mine:
                ours[(p, b)].append(min(mine) / algs["sync_floor"])
    if not floor:
        raise SystemExit(f"floor.py: no {a.coll} rows with both mpi and sync_floor in "
                         f"{', '.join(a.runs)}; run bench/shm/run.sh with sync_floor in SPECS")
    procs = sorted({k[0] for k in floor})
    sizes = sorted({k[1] for k in floor})
    table(f"{a.coll}: floor = sync_floor / MPI (OSU latency, same launch), "
          "median [min-max] over runs and modes", floor, procs, sizes)
    table(f"{a.coll}: ours = best shared-memory algorithm / sync_floor", ours, procs, sizes)


if __name__ == "__main__":
    main()
