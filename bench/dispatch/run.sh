#!/usr/bin/env bash
# run.sh: cz_<coll> beside the MPI call it dispatches to, P = 1, 2, 4, 8,
# in LAUNCHES independent launches per P (a table choice must hold in each).
#   bash bench/dispatch/run.sh BUILD_DIR OUT_DIR [TAG]
# Environment: PROCS (default "1 2 4 8"), LAUNCHES (default 3), COLLS,
# SIZES, ROUNDS (default 9), BUDGET (seconds per stream batch, 0.02), MODES
# (default stream,barrier; paired: dispatch_bench.c), BIN
# (another build's cz_dispatch_bench, to compare before and after).
# Writes OUT_DIR/dispatch<TAG>.csv (one row per launch, cell and mode; see
# dispatch_bench.c) and OUT_DIR/load<TAG>.txt (uptime around every launch).
set -euo pipefail
BUILD=${1:?build dir}; OUT=${2:?out dir}; TAG=${3:-}
BIN=${BIN:-$BUILD/bench/cz_dispatch_bench}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
CSV=$OUT/dispatch$TAG.csv LOAD=$OUT/load$TAG.txt
: > "$CSV"; : > "$LOAD"
header=1
for launch in $(seq 1 "${LAUNCHES:-3}"); do
  for P in ${PROCS:-1 2 4 8}; do
    echo "$(date -u +%H:%M:%S) launch=$launch P=$P before: $(uptime)" >> "$LOAD"
    "${MPIRUN[@]}" -n "$P" "$BIN" --tag "L$launch" --header $header \
      --rounds "${ROUNDS:-9}" --budget "${BUDGET:-0.02}" --modes "${MODES:-stream,barrier}" \
      ${COLLS:+--colls "$COLLS"} ${SIZES:+--sizes "$SIZES"} >> "$CSV"
    header=0
  done
done
echo "$(date -u +%H:%M:%S) done: $(uptime)" >> "$LOAD"
echo "wrote $CSV"
