#!/usr/bin/env bash
# bench/trace/ab_tracers.sh OLD_SO NEW_SO [TRIPLETS] [BUILD_DIR]: two tracer
# libraries side by side. Each triplet launches cz_trace_overhead (2 ranks)
# under OLD_SO, under NEW_SO and untraced, in turn, the two tracers in
# alternating order (old first in odd triplets, new first in even ones:
# with a fixed order, the second launch read 0.02-0.11 lower at 8 B ring
# and 0.03-0.05 higher at 64 KiB ring than the first with the same code
# on those paths, bench/README.md "Eleventh pass"); prints per size and
# benchmark each tracer's traced/untraced ratio against the untraced launch
# of its triplet and its recording/paused ratio in its own launch (median
# [min-max] over triplets).
set -u
old=$1 new=$2 pairs=${3:-9} build=${4:-build}
prog=$build/bench/cz_trace_overhead
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1 COLLECTIVIZE_QUIET=1
out=$(mktemp -d)
for i in $(seq $pairs); do
  order="old new untraced"
  [ $((i % 2)) = 0 ] && order="new old untraced"
  for v in $order; do
    rm -rf $out/t
    if [ $v = untraced ]; then mpirun -n 2 $prog </dev/null | tail -n +2 | sed "s/^/$i,$v,/" >> $out/all.csv
    else so=$old; [ $v = new ] && so=$new
      COLLECTIVIZE_TRACE_DIR=$out/t mpirun -n 2 -x LD_PRELOAD=$so $prog </dev/null | tail -n +2 | sed "s/^/$i,$v,/" >> $out/all.csv; fi
  done
done
python3 - $out/all.csv <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    i, v, size, mode, pp, rg = line.strip().split(',')
    d[(int(size), i)][(v, mode)] = (float(pp), float(rg))
for size in sorted({s for s, _ in d}):
    for b, name in ((0, 'pingpong'), (1, 'ring')):
        rows = [m for (s, _), m in d.items() if s == size]
        def ratio(v):
            return [m[(v,'recording')][b] / m[('untraced','paused')][b] for m in rows if (v,'recording') in m and ('untraced','paused') in m]
        def inrun(v):
            return [m[(v,'recording')][b] / m[(v,'paused')][b] for m in rows if (v,'recording') in m]
        f = lambda xs: f"{st.median(xs):.3f} [{min(xs):.2f}-{max(xs):.2f}]"
        print(f"{size:>8} {name:>8}  vs untraced: old {f(ratio('old'))}  new {f(ratio('new'))}   in-run: old {f(inrun('old'))} new {f(inrun('new'))}")
PY
echo "raw: $out/all.csv (launch,tracer,size,mode,pingpong_us,ring_us)"
