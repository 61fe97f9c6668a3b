#!/usr/bin/env bash
# run.sh: issue 7's benchmark grid for planned alltoallv on simulated nodes.
#   bash bench/planned/run.sh BUILD_DIR OUT_DIR [forced|table]
# forced: the node path forced (COLLECTIVIZE_ALLTOALLV_ALGORITHM=planned):
#         mpi, plan, cached, two_phase side by side, per (P, node size).
# table:  no forcing: MPI_Alltoallv beside cz_alltoallv (decision table) and
#         plans made by the table, to check the decision avoids slow cases.
# Environment: PROCS (default "4 8 16"), NODES (simulated node sizes,
# default "2 4 8"; 0 = real nodes, i.e. this whole machine is one node),
# TUNING (a decision table for table mode), TAG (suffix of the CSV name).
# Writes OUT_DIR/<mode><TAG>.csv; plot.py turns it into SVGs.
set -euo pipefail
BUILD=${1:?build dir}; OUT=${2:?out dir}; MODE=${3:-forced}
BIN=$BUILD/bench/cz_planned_bench
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
CSV=$OUT/$MODE${TAG:-}.csv
: > "$CSV"
header=1
for P in ${PROCS:-4 8 16}; do
  for K in ${NODES:-2 4 8}; do
    [ "$K" -lt "$P" ] || continue
    nodes=$K; [ "$K" -gt 0 ] || nodes=
    if [ "$MODE" = forced ]; then
      env=(-x COLLECTIVIZE_RANKS_PER_NODE=$nodes -x COLLECTIVIZE_ALLTOALLV_ALGORITHM=planned)
      variants=mpi,plan,cached,two_phase
    else
      env=(-x COLLECTIVIZE_RANKS_PER_NODE=$nodes -x COLLECTIVIZE_ALLTOALLV_ALGORITHM=
           -x COLLECTIVIZE_TUNING=${TUNING:-})
      variants=mpi,auto,plan
    fi
    "${MPIRUN[@]}" "${env[@]}" -n $P "$BIN" --pattern pure --variants $variants \
      --sizes 1,5,10,20,40,80,160,320 --reps 7 --iters 100 --header $header >> "$CSV"
    header=0
    "${MPIRUN[@]}" "${env[@]}" -n $P "$BIN" --pattern fft --variants $variants \
      --sizes 8,16,32,48,64 --reps 7 --iters 40 --header 0 >> "$CSV"
  done
done
echo "wrote $CSV"
