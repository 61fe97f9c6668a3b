# Parallel Research Kernels (ParRes/Kernels), MPI1 versions, built with their
# makefiles and a make.defs naming collectivize-cc (-O2 -g). Cases:
# transpose (a phase loop of Isend/Irecv to rank -/+ phase, every block
# packed and accumulated in the loop: an all-to-all) at P = 4 and 8, and
# its SYNCHRONOUS=1 build (the same loop with MPI_Sendrecv) at P = 4;
# dgemm (SUMMA: a ring broadcast of A's and B's panels along the rows and
# columns of a processor grid, communicators from MPI_Comm_create) at
# P = 6 (2x3) and 9 (3x3); p2p (a pipelined wavefront: the value forwarded
# is computed from the one received, no collective) at P = 4 and 8, with
# and without grouping; stencil (a 2D halo exchange) at P = 4 and 8.
SRC_NAME=PRK
PRK_KERNELS="Transpose:transpose DGEMM:dgemm Synch_p2p:p2p Stencil:stencil"

build_program() {
  local k dir prog
  printf 'MPICC=%s\nDEFAULT_OPT_FLAGS=-O2 -g\n' "$CZ_CC" > common/make.defs
  for k in $PRK_KERNELS; do
    dir=${k%:*} prog=${k#*:}
    make -C MPI1/$dir $prog && test -x MPI1/$dir/$prog || return 1
  done
  # The blocking variant of the transpose: the same phase loop through
  # MPI_Sendrecv, built a second time under its own name.
  cp MPI1/Transpose/transpose MPI1/Transpose/transpose-async
  make -C MPI1/Transpose clean && make -C MPI1/Transpose transpose SYNCHRONOUS=1 &&
    mv MPI1/Transpose/transpose MPI1/Transpose/transpose-sync &&
    mv MPI1/Transpose/transpose-async MPI1/Transpose/transpose
}

# The rewriter parses the kernels with their make flags (the include
# directory of par-res-kern_general.h, the MPI variant's macros).
rewrite_args() {
  REWRITE_ARGS=(-- -I"$BUILD/include" -DMPI -DSYNCHRONOUS=0 -DRESTRICT_KEYWORD=0 -DVERBOSE=0 -DBOFFSET=12)
}

run_cases() {
  local np
  mkdir -p "$P_OUT/transpose/work" "$P_OUT/transpose-sync/work" "$P_OUT/dgemm/work" \
           "$P_OUT/p2p/work" "$P_OUT/p2p-grouped/work" "$P_OUT/stencil/work"
  for np in 4 8; do
    (cd "$P_OUT/transpose/work" && cz_case transpose $np 1 -- "$BUILD/MPI1/Transpose/transpose" 3 96)
  done
  (cd "$P_OUT/transpose-sync/work" && cz_case transpose-sync 4 1 -- "$BUILD/MPI1/Transpose/transpose-sync" 3 96)
  for np in 6 9; do
    (cd "$P_OUT/dgemm/work" && cz_case dgemm $np 1 -- "$BUILD/MPI1/DGEMM/dgemm" 2 72 8 0)
  done
  for np in 4 8; do
    (cd "$P_OUT/p2p/work" && cz_case p2p $np 1 -- "$BUILD/MPI1/Synch_p2p/p2p" 2 64 16)
    (cd "$P_OUT/p2p-grouped/work" && cz_case p2p-grouped $np 1 -- "$BUILD/MPI1/Synch_p2p/p2p" 2 64 16 4)
    (cd "$P_OUT/stencil/work" && cz_case stencil $np 1 -- "$BUILD/MPI1/Stencil/stencil" 3 64)
  done
}
