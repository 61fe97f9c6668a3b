# parallel-etudes (mmarzolla/parallel-etudes): MPI exercises with their
# solutions (SERIAL undefined), built by the repository Makefile with
# MPICC=collectivize-cc.  Each exercise is one case, P = 4 and 8.
SRC_NAME=parallel-etudes
ETUDES="mpi-my-bcast mpi-my-reduce mpi-my-scatter mpi-sum mpi-pi mpi-ring mpi-rank mpi-merge-sort mpi-rule30 mpi-shift-right"

build_program() {
  make -j2 MPICC="$CZ_CC" CFLAGS="-std=c99 -Wall -g -O2" $ETUDES
}

# case name, executable, arguments.  mpi-sum's default input (n=10000) makes
# every partial sum 0 (values 1,-1,2,-2,0 repeat and the blocks are multiples
# of 5 long); n=1012 gives non-zero partial sums at P = 4 and 8.
ETUDE_CASES="my-bcast:mpi-my-bcast: my-reduce:mpi-my-reduce: my-scatter:mpi-my-scatter:
sum:mpi-sum:10000 sum-nonzero:mpi-sum:1012 pi:mpi-pi:100000 ring:mpi-ring:3 rank:mpi-rank:1200
merge-sort:mpi-merge-sort:4096 rule30:mpi-rule30:1024,20 shift-right:mpi-shift-right:1200"

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -std=c99)
}

run_cases() {
  local c name exe args np
  for c in $ETUDE_CASES; do
    IFS=: read -r name exe args <<< "$c"
    mkdir -p "$P_OUT/$name/work"
    for np in 4 8; do
      (cd "$P_OUT/$name/work" && cz_case "$name" $np 1 -- "$BUILD/$exe" ${args//,/ })
    done
  done
  (cd "$P_OUT/my-bcast/work" && cz_case my-bcast 4 2 -- "$BUILD/mpi-my-bcast")
}
