#!/usr/bin/env bash
# ab_libs.sh: the same cz_dispatch_bench against two builds of the runtime
# library, launch by launch in turn (A, B, B, A, A, B, ...: the order
# alternates, as the second of two launches can read differently for
# that alone, bench/README.md "Eleventh pass"), so both see the same
# minutes of a shared machine. A build is a directory holding its
# libcollectivize.so.0, put first on LD_LIBRARY_PATH (which the program's
# RUNPATH yields to).
#   bash bench/dispatch/ab_libs.sh BUILD_DIR A_LIBDIR B_LIBDIR OUT_DIR
# Environment: LAUNCHES (default 6 per build), PROCS (default 2), COLLS,
# SIZES (default 8,64), ROUNDS (9), BUDGET (0.02), MODES (stream,barrier;
# paired: dispatch_bench.c), YIELD (1: ranks yield
# when idle, as run.sh runs them; 0: they busy-poll).
# Writes OUT_DIR/dispatch-a.csv and dispatch-b.csv (dispatch_bench.c's
# columns; summary.py reads each) and OUT_DIR/load.txt.
set -euo pipefail
BUILD=${1:?build dir}; A=${2:?A libdir}; B=${3:?B libdir}; OUT=${4:?out dir}
BIN=$BUILD/bench/cz_dispatch_bench
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
: > "$OUT/dispatch-a.csv"; : > "$OUT/dispatch-b.csv"; : > "$OUT/load.txt"
header=1
for launch in $(seq 1 "${LAUNCHES:-6}"); do
  for P in ${PROCS:-2}; do
    order="a b"
    [ $((launch % 2)) = 0 ] && order="b a"
    for side in $order; do
      lib=$A; [ "$side" = b ] && lib=$B
      echo "$(date -u +%H:%M:%S) launch=$launch P=$P $side: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/load.txt"
      mpirun --oversubscribe --mca mpi_yield_when_idle "${YIELD:-1}" -n "$P" \
        -x LD_LIBRARY_PATH="$lib" "$BIN" --tag "$side-L$launch" --header $header \
        --rounds "${ROUNDS:-9}" --budget "${BUDGET:-0.02}" --modes "${MODES:-stream,barrier}" \
        --colls "${COLLS:-alltoall,allgather,bcast,allreduce,alltoallv}" \
        --sizes "${SIZES:-8,64}" >> "$OUT/dispatch-$side.csv"
    done
    header=0
  done
done
echo "$(date -u +%H:%M:%S) done: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/load.txt"
