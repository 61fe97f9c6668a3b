#!/bin/bash
# bench/trace/ab_writer.sh [LAUNCHES] [BUILD_DIR]: one tracer, its log written
# from the writer thread and at the ranks' wait points
# (COLLECTIVIZE_TRACE_WRITER=thread / inline), launch by launch in turn;
# prints each mode's recording/paused ratio in its own launch (median
# [min-max] over launches) per size and benchmark of cz_trace_overhead.
n=${1:-9}; build=${2:-build}; prog=$build/bench/cz_trace_overhead; so=$build/runtime/trace/libcollectivize_trace.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1 COLLECTIVIZE_QUIET=1
out=$(mktemp -d)
for i in $(seq $n); do
  for w in thread inline; do
    rm -rf $out/t
    COLLECTIVIZE_TRACE_WRITER=$w COLLECTIVIZE_TRACE_DIR=$out/t mpirun -n 2 -x LD_PRELOAD=$so -x COLLECTIVIZE_TRACE_WRITER $prog </dev/null | tail -n +2 | sed "s/^/$i,$w,/" >> $out/all.csv
  done
done
python3 - $out/all.csv <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    i, w, size, mode, pp, rg = line.strip().split(',')
    d[(int(size), i)][(w, mode)] = (float(pp), float(rg))
for size in sorted({s for s, _ in d}):
    for b, name in ((0, 'pingpong'), (1, 'ring')):
        rows = [m for (s, _), m in d.items() if s == size]
        f = lambda w: [m[(w,'recording')][b] / m[(w,'paused')][b] for m in rows if (w,'recording') in m and (w,'paused') in m]
        g = lambda xs: f"{st.median(xs):.3f} [{min(xs):.2f}-{max(xs):.2f}]"
        print(f"{size:>8} {name:>8}  in-run: thread {g(f('thread'))}  inline {g(f('inline'))}")
PY
echo "raw: $out/all.csv"
