# CMDA 3634 (nchalmer/CMDA3634SP18, a course's lectures): L09, hand-made
# collectives in C (myMPI_Bcast: a ring broadcast from any root;
# myMPI_Barrier: two such broadcasts; treeMPI_Bcast: a binomial
# broadcast from rank 0; MPI_Reduction: a halving reduction of floats to
# rank 0), built with its makefile and CC=collectivize-cc. Case l09 at
# P = 4 and 8.
SRC_NAME=CMDA3634SP18

build_program() {
  make -C L09 CC="$CZ_CC" && test -x L09/main
}

run_cases() {
  local np
  mkdir -p "$P_OUT/l09/work"
  for np in 4 8; do
    (cd "$P_OUT/l09/work" && cz_case l09 $np 1 -- "$BUILD/L09/main")
  done
}
