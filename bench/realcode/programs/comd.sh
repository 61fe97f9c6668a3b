# CoMD 1.1 (ECP-copa/CoMD), src-mpi with its Makefile.vanilla (MPI on, double
# precision), CC=collectivize-cc.  Lennard-Jones (default potential), 16^3
# unit cells, 20 steps; grids 2x2x1 (P=4), 2x2x2 (P=8), 3x2x2 (P=12).
SRC_NAME=CoMD

build_program() {
  cd src-mpi && cp Makefile.vanilla Makefile &&
  make -j2 CC="$CZ_CC" OPTFLAGS="-g -O2" && test -x ../bin/CoMD-mpi
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -std=c99 -DDOUBLE -DDO_MPI)
}

run_cases() {
  local wd=$P_OUT/lj/work exe=$BUILD/bin/CoMD-mpi
  mkdir -p "$wd"; cd "$wd" || return
  local args=(-x 16 -y 16 -z 16 -N 20 -n 10)
  cz_case lj 4 1 -- "$exe" -i 2 -j 2 -k 1 "${args[@]}"
  cz_case lj 4 2 -- "$exe" -i 2 -j 2 -k 1 "${args[@]}"
  cz_case lj 8 1 -- "$exe" -i 2 -j 2 -k 2 "${args[@]}"
  cz_case lj 12 1 -- "$exe" -i 3 -j 2 -k 2 "${args[@]}"
}
