#!/usr/bin/env bash
# wait_ab.sh: how shm ranks wait (COLLECTIVIZE_SHM_WAIT, runtime/src/common/
# node_wait.h), A/B: one launch per (round, P, policy), policies interleaved
# within a round, each launch timing MPI's collective beside the shm ones so
# that ratios compare within a launch.
#   bash bench/shm/wait_ab.sh BUILD_DIR OUT.csv [ROUNDS] [POLICIES] [PROCS] [SIZES] [COLL] [ALGS]
# Defaults: 2 rounds, "yield auto sleep", P "8 16", sizes 8,64,512,2048,
# alltoall, algorithms mpi,shm_pull. Output rows: policy,round, then
# shm_bench's columns; '#' lines give uptime before each launch.
set -euo pipefail
BUILD=${1:?build dir}; OUT=${2:?out csv}
ROUNDS=${3:-2}; POLICIES=${4:-yield auto sleep}; PROCS=${5:-8 16}
SIZES=${6:-8,64,512,2048}; COLL=${7:-alltoall}; ALGS=${8:-mpi,shm_pull}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
: > "$OUT"
for r in $(seq "$ROUNDS"); do
  for P in $PROCS; do
    for pol in $POLICIES; do
      echo "# $r $P $pol $(uptime)" >> "$OUT"
      mpirun --oversubscribe --mca mpi_yield_when_idle 1 -x COLLECTIVIZE_SHM_WAIT="$pol" \
        -n "$P" "$BUILD/bench/cz_shm_bench" --coll "$COLL" --algs "$ALGS" \
        --sizes "$SIZES" --reps 5 --header 0 | sed "s/^/$pol,$r,/" >> "$OUT"
    done
  done
done
echo "wrote $OUT"
