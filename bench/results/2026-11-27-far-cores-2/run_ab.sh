#!/usr/bin/env bash
# run_ab.sh: A/B of two libcollectivize builds under one cz_dispatch_bench,
# launches alternating (odd launches A first, even B first), with the two
# vCPUs' placement read by cz_far_cores (a line's fastest round trip
# over 50 windows, round_trip_min_ns) before,
# between P = 2 and P = 4, and after each build's launches.
#   bash run_ab.sh BIN FAR_CORES LIB_A LIB_B OUT [LAUNCHES]
# Environment: COLLS, SIZES, PROCS (default "2 4"), ROUNDS (default 9).
# Writes OUT/a.csv, OUT/b.csv (dispatch_bench rows, tag = L<launch>-P<P>)
# and OUT/placement.csv (launch,build,procs,when,round_trip_ns,load1).
set -euo pipefail
BIN=$1 FAR=$2 LIB_A=$3 LIB_B=$4 OUT=$5 LAUNCHES=${6:-12}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
COLLS=${COLLS:-allgather,alltoall,bcast,allreduce}
SIZES=${SIZES:-32768,131072,262144}
echo "launch,build,procs,when,round_trip_ns,load1" > "$OUT/placement.csv"
header_a=1 header_b=1
probe() { # launch build procs when
  local rt
  rt=$("$FAR" 1 4096 | awk -F, 'NR == 2 {print $6}')
  echo "$1,$2,$3,$4,$rt,$(cut -d' ' -f1 /proc/loadavg)" >> "$OUT/placement.csv"
}
for launch in $(seq 1 "$LAUNCHES"); do
  if (( launch % 2 )); then order="a b"; else order="b a"; fi
  for b in $order; do
    lib=$LIB_A; [[ $b == b ]] && lib=$LIB_B
    hv=header_$b
    for P in ${PROCS:-2 4}; do
      probe "$launch" "$b" "$P" before
      "${MPIRUN[@]}" -x LD_LIBRARY_PATH="$lib" -n "$P" "$BIN" --tag "L$launch-P$P" \
        --header "${!hv}" --colls "$COLLS" --sizes "$SIZES" --rounds "${ROUNDS:-9}" \
        >> "$OUT/$b.csv"
      printf -v "$hv" 0
      probe "$launch" "$b" "$P" after
    done
  done
  echo "$(date -u +%T) launch $launch done" >&2
done
