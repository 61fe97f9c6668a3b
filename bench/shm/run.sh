#!/usr/bin/env bash
# run.sh: issue 9's benchmark grid: shared-memory collectives beside the MPI
# library's, P = 2, 4, 8, 16 on this one node, clean and dirty send buffers.
#   bash bench/shm/run.sh BUILD_DIR OUT_DIR [TAG]
# Environment: PROCS (default "2 4 8 16"), SIZES, REPS (default 7), SPECS
# ("COLL:ALG,ALG ...", default: every shm algorithm, spread-out, MPI), AUTO=1 to
# add "auto" (cz_<coll> through the decision table; COLLECTIVIZE_TUNING if
# set), ZC=1 for the zero-copy comparison instead (alltoall shm_pull and
# allgather shm with the send data in cz_buffer_alloc memory, *_zc). Writes OUT_DIR/shm<TAG>.csv and OUT_DIR/load<TAG>.txt (uptime before
# and after every launch: the machine is shared, read ratios with it).
set -euo pipefail
BUILD=${1:?build dir}; OUT=${2:?out dir}; TAG=${3:-}
BIN=$BUILD/bench/cz_shm_bench
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
CSV=$OUT/shm$TAG.csv LOAD=$OUT/load$TAG.txt
SIZES=${SIZES:-8,64,512,2048,8192,32768,131072,1048576}
auto=; [ "${AUTO:-0}" = 1 ] && auto=,auto
: > "$CSV"; : > "$LOAD"
header=1
for P in ${PROCS:-2 4 8 16}; do
  specs=${SPECS:-"alltoall:mpi,shm_push,shm_pull,shm_flag_push,shm_flag_pull,spread_out allgather:mpi,shm,shm_flag bcast:mpi,shm"}
  [ "${ZC:-0}" = 1 ] && specs="alltoall:mpi,shm_pull,shm_pull_zc allgather:mpi,shm,shm_zc"
  for spec in $specs; do
    coll=${spec%%:*} algs=${spec#*:}$auto
    echo "$(date -u +%H:%M:%S) P=$P $coll before: $(uptime)" >> "$LOAD"
    "${MPIRUN[@]}" -x COLLECTIVIZE_TUNING=${COLLECTIVIZE_TUNING:-} -n "$P" "$BIN" \
      --coll "$coll" --algs "$algs" --sizes "$SIZES" --reps "${REPS:-7}" \
      --header $header >> "$CSV"
    header=0
  done
done
echo "$(date -u +%H:%M:%S) done: $(uptime)" >> "$LOAD"
echo "wrote $CSV"
