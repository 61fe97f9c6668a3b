# HypercubeAllreduce (MichaelAxtmann/HypercubeAllreduce): a research code's
# hypercube allreduce, a C++ template over std::vector with the operation
# as a lambda (here a sum of longs): log2 P rounds of MPI_Isend to rank ^ 2^k
# and MPI_Probe, MPI_Get_count, MPI_Recv from it, each round combining the
# partner's vector into its own. Its benchmark main, built as the Makefile's
# release target with collectivize-c++: sizes 2 .. 2^20 longs, 10 calls each
# with fresh random values. Power-of-two process counts only: P = 4 and 8.
SRC_NAME=hypercube-allreduce

build_program() {
  "$CZ_CXX" -std=c++11 -Wall -Wextra -O3 -g -DNDEBUG -o allreduce HypercubeAllreduce.cpp
}

rewrite_args() {
  REWRITE_ARGS=(-- -std=c++11 -DNDEBUG)
}

run_cases() {
  local np
  mkdir -p "$P_OUT/allreduce/work"
  for np in 4 8; do
    (cd "$P_OUT/allreduce/work" && cz_case allreduce $np 1 -- "$BUILD/allreduce")
  done
}
