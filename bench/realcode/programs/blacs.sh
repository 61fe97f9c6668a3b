# The BLACS, ScaLAPACK's communication layer (Reference-ScaLAPACK/
# scalapack, BLACS/SRC), compiled with collectivize-cc as its CMake list
# does (the communication and support routines twice, for the Fortran and
# the C interface; -DAdd_), and linked with the suite's own driver
# (recipes/blacs/blacs_topologies.c): broadcasts and sums over scope
# "All" of a 2 x (P/2) grid, along one BLACS topology per case. The BLACS
# build these from point-to-point messages through their own wrappers of
# MPI_Send/Recv/Isend/Irecv/Rsend (BI_Ssend.c, ...). Cases: one per
# topology, broadcast and sum along the same one: i (increasing ring),
# s (split ring), m (multi-ring), h (hypercube; the sum a bidirectional
# exchange), f (fully connected: flat), t (tree), at P = 6.
SRC_NAME=scalapack
BLACS_TOPS="i s m h f t"

build_program() {
  local f srcs
  mkdir -p blacs-build && cd BLACS/SRC || return 1
  srcs=$(python3 "$REALCODE/recipes/blacs/sources.py" CMakeLists.txt comm supp) || return 1
  for f in $(python3 "$REALCODE/recipes/blacs/sources.py" CMakeLists.txt comm supp internal); do
    "$CZ_CC" -g -O1 -DAdd_ -c "$f" -o "../../blacs-build/${f%.c}.o" || return 1
  done
  for f in $srcs; do
    "$CZ_CC" -g -O1 -DAdd_ -DCallFromC -c "$f" -o "../../blacs-build/${f%.c}-C.o" || return 1
  done
  cd ../..
  "$CZ_CC" -g -O1 -o blacs-build/blacs_topologies "$REALCODE/recipes/blacs/blacs_topologies.c" blacs-build/*.o &&
    test -x blacs-build/blacs_topologies
}

rewrite_args() {
  REWRITE_ARGS=(-- -DAdd_)
}

run_cases() {
  local t
  for t in $BLACS_TOPS; do
    mkdir -p "$P_OUT/top-$t/work"
    (cd "$P_OUT/top-$t/work" && cz_case top-$t 6 1 -- "$BUILD/blacs-build/blacs_topologies" $t $t 2)
  done
}
