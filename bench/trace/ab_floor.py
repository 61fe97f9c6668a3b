#!/usr/bin/env python3
"""ab_floor.py ALL.CSV [ALL.CSV ...]: the raw rows of one or more
`bench/trace/ab_tracers.sh` runs (launch,tracer,size,mode,pingpong_us,
ring_us) taken together: per size (8 B, 1 KiB) and benchmark, each
tracer's in-run recording/paused ratio (median [min-max] over the
triplets), how often the new tracer was below the old one in the same
triplet, and the floor mode's ratio to paused (the program hashing and
recording each message itself; cz_trace_overhead) in the untraced launch
and over all launches: the floor the goal "floor + 0.03" is read from.
"""
import collections
import statistics as st
import sys

d = collections.defaultdict(dict)
for f in sys.argv[1:]:
    for line in open(f):
        i, v, size, mode, pp, rg = line.strip().split(',')
        d[(f, int(size), i)][(v, mode)] = (float(pp), float(rg))


def span(xs):
    return f"{st.median(xs):.3f} [{min(xs):.2f}-{max(xs):.2f}]"


def ratio(m, v, mode, b):
    return m[(v, mode)][b] / m[(v, 'paused')][b]


for size in (8, 1024):
    for b, name in ((0, 'pingpong'), (1, 'ring')):
        rows = [m for (f, s, _), m in d.items() if s == size]
        old = [ratio(m, 'old', 'recording', b) for m in rows]
        new = [ratio(m, 'new', 'recording', b) for m in rows]
        below = sum(1 for o, n in zip(old, new) if n < o)
        floor = [ratio(m, 'untraced', 'floor', b) for m in rows]
        floor_all = [ratio(m, v, 'floor', b) for m in rows for v in ('old', 'new', 'untraced')]
        print(f"{size:>5} {name:>8} n={len(rows)} old {span(old)} new {span(new)} "
              f"new<old {below}/{len(rows)} floor(untraced launch) {span(floor)} "
              f"floor(all launches) {span(floor_all)}")
