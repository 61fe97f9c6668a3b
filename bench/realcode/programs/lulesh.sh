# LULESH 2.0 (LLNL/LULESH) with its Makefile, MPI on (-DUSE_MPI=1), OpenMP
# off (CXXFLAGS without -fopenmp; the code's pragmas are then ignored),
# CXX=collectivize-c++.  Needs a cube number of ranks: P = 8 (2x2x2) and
# 27 (3x3x3); problem 6^3 elements per rank (-s 6), 20 iterations (-i 20).
SRC_NAME=LULESH

build_program() {
  make -j2 CXX="$CZ_CXX -DUSE_MPI=1" CXXFLAGS="-g -O2 -I. -Wall -Wno-unknown-pragmas" LDFLAGS="-g -O2" &&
  test -x lulesh2.0
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -DUSE_MPI=1 -I"$BUILD")
}

run_cases() {
  local np; mkdir -p "$P_OUT/sedov/work"
  for np in 8 27; do
    (cd "$P_OUT/sedov/work" && cz_case sedov $np 1 -- "$BUILD/lulesh2.0" -s 6 -i 20 -q)
  done
  (cd "$P_OUT/sedov/work" && cz_case sedov 8 2 -- "$BUILD/lulesh2.0" -s 6 -i 20 -q)
}
