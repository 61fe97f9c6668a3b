# mpiGraph (LLNL/mpiGraph): a network bandwidth benchmark. For every
# distance d = 1 .. P-1 each rank Isends `window` messages to rank me+d
# and Irecvs as many from rank me-d, `times` times, between two barriers;
# the timings are gathered with MPI_Gather. Over the distances every rank
# sends to every other one: an alltoall's shape made of point-to-point
# measurements, whose buffers the program never fills (malloc). Built with
# its makefile's command and CC=collectivize-cc (-g). Case bw at P = 4 and
# 8 (`mpiGraph 4096 2 2`: 4 KiB messages, 2 times, window 2).
SRC_NAME=mpiGraph

build_program() {
  "$CZ_CC" -g -O2 -o mpiGraph mpiGraph.c && test -x mpiGraph
}

run_cases() {
  local np
  mkdir -p "$P_OUT/bw/work"
  for np in 4 8; do
    (cd "$P_OUT/bw/work" && cz_case bw $np 1 -- "$BUILD/mpiGraph" 4096 2 2)
  done
}
