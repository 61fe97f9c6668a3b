# CloverLeaf (UK-MAC/CloverLeaf_ref): the 2-D Lagrangian-Eulerian hydro
# mini-app in Fortran 90 (`use mpi`) with its Makefile, COMPILER=GNU,
# MPI_COMPILER=collectivize-fc, OpenMP off (OMP_GNU empty: the !$OMP
# directives are then comments), -g added.  The C kernels hold no MPI call
# and are built with plain gcc (C_MPI_COMPILER=gcc).  Input: our
# recipes/cloverleaf/clover.in (the default deck's two states on a 96 x 96
# grid, 10 steps, a field summary every 5).  P = 4 (2 x 2 chunks) and 8
# (4 x 2).
SRC_NAME=CloverLeaf_ref

build_program() {
  make COMPILER=GNU OMP_GNU= MPI_COMPILER="$CZ_FC" C_MPI_COMPILER=gcc \
       OPTIONS=-g C_OPTIONS=-g FLAGS_GNU="-O2 -funroll-loops" CFLAGS_GNU="-O2" &&
  test -x clover_leaf
}

run_cases() {
  local np; mkdir -p "$P_OUT/bm96/work"
  cp "$REALCODE/recipes/cloverleaf/clover.in" "$P_OUT/bm96/work/clover.in"
  for np in 4 8; do
    (cd "$P_OUT/bm96/work" && cz_case bm96 $np 1 -- "$BUILD/clover_leaf")
  done
}
