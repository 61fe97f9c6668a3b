#!/usr/bin/env python3
"""floor.py: how close the shm alltoalls can come to MPI at all on this
machine: their synchronisation alone, read off their 8 B calls (copies of
a few bytes: what is left is the waiting for every rank to arrive and be
scheduled), over MPI_Alltoall's latency at each size, from the same
launch.

  python3 bench/shm/floor.py RUN.csv [RUN.csv ...] [--algs shm_push,...]

Per (P, size): median [min-max] over runs and modes (clean, dirty) of
  min over the shm algorithms of their OSU latency at 8 B
  / MPI_Alltoall's OSU latency at that size.
A cell above 0.5 says: even with free copies, an algorithm that waits like
these cannot reach 0.5x MPI there (the goal needs a cheaper wait, not a
cheaper copy)."""
import argparse
import collections
import csv
import statistics


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--algs", default="shm_push,shm_pull,shm_flag_push,shm_flag_pull")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    algs = set(a.algs.split(","))
    out = collections.defaultdict(list)
    for run in a.runs:
        lat = {}
        with open(run) as f:
            for r in csv.DictReader(f):
                if r["collective"] == "alltoall" and r["status"] == "ok":
                    lat[(int(r["procs"]), int(r["bytes"]), r["mode"], r["algorithm"])] = float(r["osu_us"])
        for (p, b, mode, alg), t in lat.items():
            if alg != "mpi":
                continue
            floor = [lat[k] for k in lat if k[0] == p and k[1] == 8 and k[2] == mode and k[3] in algs]
            if floor:
                out[(p, b)].append(min(floor) / t)
    procs = sorted({k[0] for k in out})
    sizes = sorted({k[1] for k in out})
    print("alltoall: best shm latency at 8 B / MPI latency at each size, median [min-max] over runs and modes")
    print("| bytes | " + " | ".join(f"P={p}" for p in procs) + " |")
    print("|---:|" + "---:|" * len(procs))
    for b in sizes:
        cells = []
        for p in procs:
            v = out.get((p, b))
            cells.append(f"{statistics.median(v):.2f} [{min(v):.2f}-{max(v):.2f}]" if v else "")
        print(f"| {b} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
