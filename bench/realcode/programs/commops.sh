# mpi-communication-operations (sh-zam/mpi-communication-operations): one
# file, mpi-barrier.c: a hypercube (butterfly) barrier that exchanges a
# 32768-int buffer with partner rank ^ (s/2) at each stage, then a sum of
# the ranks over the same butterfly (all_to_all_reduce).  Built with
# collectivize-cc -g -O2 (no build files).  Cases at P = 4 and 8 (the
# stages cover every rank only for a power-of-two P).
SRC_NAME=mpi-communication-operations

build_program() {
  "$CZ_CC" -g -O2 -o mpi-barrier mpi-barrier.c -lm
}

run_cases() {
  local np; mkdir -p "$P_OUT/barrier/work"
  for np in 4 8; do
    (cd "$P_OUT/barrier/work" && cz_case barrier $np 1 -- "$BUILD/mpi-barrier")
  done
}
