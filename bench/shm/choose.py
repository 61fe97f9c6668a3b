#!/usr/bin/env python3
"""choose.py: which shm cells the decision table may take, from several
shm_bench runs (bench/shm/run.sh).

  python3 bench/shm/choose.py --margin 0.2 RUN.csv [RUN.csv ...]

A cell (collective, P, bytes) goes to an algorithm only if its OSU-time
ratio to MPI's collective, in the same run, is at most 1 - margin in every
run and in both modes (clean and dirty): the worst of all measurements must
still win clearly, because on a shared machine the same code timed twice
differs by up to 2x. The table's "auto" rows count as measurements of the
algorithm the table chose for them. Prints one line per cell: the worst
ratio of each algorithm and the verdict."""
import argparse
import collections
import csv


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--margin", type=float, default=0.2)
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    worst = collections.defaultdict(lambda: collections.defaultdict(float))
    seen = collections.defaultdict(lambda: collections.defaultdict(int))
    for run in a.runs:
        for r in csv.DictReader(open(run)):
            if r["status"] != "ok" or r["algorithm"] in ("mpi", "auto"):
                continue
            k = (r["collective"], int(r["procs"]), int(r["bytes"]))
            v = float(r["osu_ratio_to_mpi"])
            worst[k][r["algorithm"]] = max(worst[k][r["algorithm"]], v)
            seen[k][r["algorithm"]] += 1
    for k in sorted(worst, key=lambda k: (k[0], k[1], k[2])):
        algs = worst[k]
        best = min(algs, key=algs.get)
        ok = algs[best] <= 1 - a.margin and seen[k][best] >= 2 * len(a.runs)
        desc = " ".join(f"{n}={v:.2f}" for n, v in sorted(algs.items()))
        print(f"{k[0]:9} P={k[1]:<3} {k[2]:>8} B  {desc:40} -> {best if ok else 'mpi'}")


if __name__ == "__main__":
    main()
