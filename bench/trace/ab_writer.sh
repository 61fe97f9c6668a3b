#!/bin/bash
# bench/trace/ab_writer.sh [LAUNCHES] [BUILD_DIR]: one tracer, its log written
# from the writer thread and at the ranks' wait points
# (COLLECTIVIZE_TRACE_WRITER=thread / inline), launch by launch in turn,
# in alternating order (the second launch of a pair is biased, see
# ab_tracers.sh);
# prints each mode's recording/paused ratio in its own launch (median
# [min-max] over launches) per size and benchmark of cz_trace_overhead.
# YIELD=0: the ranks busy-poll instead of yielding when idle (default 1).
n=${1:-9}; build=${2:-build}; prog=$build/bench/cz_trace_overhead; so=$build/runtime/trace/libcollectivize_trace.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=${YIELD:-1} COLLECTIVIZE_QUIET=1
out=$(mktemp -d)
for i in $(seq $n); do
  order="thread inline"
  [ $((i % 2)) = 0 ] && order="inline thread"
  for w in $order; do
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
        rows = [m for m in rows if all((w, k) in m for w in ('thread', 'inline') for k in ('recording', 'paused'))]
        f = lambda w: [m[(w,'recording')][b] / m[(w,'paused')][b] for m in rows]
        g = lambda xs: f"{st.median(xs):.3f} [{min(xs):.2f}-{max(xs):.2f}]"
        lower = sum(t < i for t, i in zip(f('thread'), f('inline')))
        print(f"{size:>8} {name:>8}  in-run: thread {g(f('thread'))}  inline {g(f('inline'))}"
              f"  thread lower in {lower} of {len(rows)}")
PY
echo "raw: $out/all.csv"
