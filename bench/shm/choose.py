#!/usr/bin/env python3
"""choose.py: which cells the decision table may give to a native
algorithm, from several shm_bench runs (bench/shm/run.sh), and the table
rules that follow.

  python3 bench/shm/choose.py [--margin 0.2] [--rules] RUN.csv [RUN.csv ...]

The rule (the same as `collectivize tune`'s, bench/include/bench/tune_rules.h,
applied to every run): an algorithm takes a cell (collective, P, bytes) only
if, in EVERY run and in BOTH modes (clean: the same send data every call;
dirty: the send buffer rewritten before each call),
  - its OSU latency is at most (1 - margin) x the MPI library's collective
    timed in the same run, and
  - its makespan (first rank's start to last rank's return) is at most
    (1 + margin) x MPI's: arrival skew dominates makespans on an
    oversubscribed node, so they must not be worse beyond the noise, but
    need not be better.
The margin is the noise allowance: on a shared machine the same code timed
twice differs by tens of percent, so the worst of several runs must still
win clearly. Among the algorithms that pass, the smallest worst OSU ratio
wins. "auto" rows (cz_<coll> through the table being measured) are ignored.

Prints one line per cell: each algorithm's worst OSU and makespan ratios and
the verdict. --rules prints decision-table lines instead: per measured P,
a size's choice holds from that size up to just below the next measured
size (the smallest also below it, the largest above it); a measured P's
rules hold up to just below the next measured P, and the largest measured P
for itself only (nothing is extrapolated beyond what was measured)."""
import argparse
import collections
import csv

COLLECTIVES = ("alltoall", "allgather", "bcast", "allreduce")


def size_text(b):
    for shift, suffix in ((20, "M"), (10, "K")):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{suffix}"
    return str(b)


def range_text(lo, hi):
    if hi is None:
        return "*" if lo <= 0 else f"{size_text(lo)}-*"
    return f"{size_text(lo)}-{size_text(hi)}" if lo != hi else size_text(lo)


def verdicts(runs, margin):
    """{(coll, P, bytes): (choice, {alg: (worst_osu, worst_makespan, n)})}"""
    worst = collections.defaultdict(lambda: collections.defaultdict(lambda: [0.0, 0.0, 0]))
    for run in runs:
        with open(run) as f:
            for r in csv.DictReader(f):
                if r["algorithm"] in ("mpi", "auto"):
                    continue
                k = (r["collective"], int(r["procs"]), int(r["bytes"]))
                w = worst[k][r["algorithm"]]
                if r["status"] != "ok":
                    w[0] = w[1] = float("inf")
                    continue
                w[0] = max(w[0], float(r["osu_ratio_to_mpi"]))
                w[1] = max(w[1], float(r["makespan_ratio_to_mpi"]))
                w[2] += 1
    out = {}
    for k, algs in worst.items():
        ok = {a: w for a, w in algs.items()
              if w[2] >= 2 * len(runs) and w[0] <= 1 - margin and w[1] <= 1 + margin}
        choice = min(ok, key=lambda a: ok[a][0]) if ok else "mpi"
        out[k] = (choice, algs)
    return out


def rules(cells):
    lines = []
    for coll in COLLECTIVES:
        procs = sorted({p for c, p, _ in cells if c == coll})
        for i, p in enumerate(procs):
            hi_p = procs[i + 1] - 1 if i + 1 < len(procs) else p
            prange = str(p) if hi_p == p else f"{p}-{hi_p}"
            sizes = sorted(b for c, q, b in cells if c == coll and q == p)
            runs = []  # [lo, choice]
            for b in sizes:
                choice = cells[(coll, p, b)][0]
                if runs and runs[-1][1] == choice:
                    continue
                runs.append([0 if not runs else b, choice])
            for j, (lo, choice) in enumerate(runs):
                if choice == "mpi":
                    continue
                hi = runs[j + 1][0] - 1 if j + 1 < len(runs) else None
                lines.append(f"{coll:<10} {prange:<7} {range_text(lo, hi):<11} {choice}")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--margin", type=float, default=0.2)
    ap.add_argument("--rules", action="store_true")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    cells = verdicts(a.runs, a.margin)
    if a.rules:
        print("\n".join(rules(cells)))
        return
    for k in sorted(cells):
        choice, algs = cells[k]
        desc = " ".join(f"{n}={w[0]:.2f}/{w[1]:.2f}" for n, w in sorted(algs.items()))
        print(f"{k[0]:9} P={k[1]:<3} {k[2]:>8} B  {desc:52} -> {choice}")


if __name__ == "__main__":
    main()
