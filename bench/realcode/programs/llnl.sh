# LLNL's MPI tutorial examples (LLNL/HPC-Tutorials, mpi/examples): the
# tutorial's C programs, each compiled alone with collectivize-cc -g -O2 (the
# directory's Makefile.MPI.c names one site's compilers).  The mpi_bug*.c
# programs are wrong on purpose and are left out, as are the ones that only
# call collectives or print.  Cases at P = 4 and 8 unless a program needs
# another count: cartesian needs exactly 16, latency times ranks 0 and 1 only,
# heat2d takes 3-8 workers (P = 4 and 9), ringtopo also runs at P = 3 (its two
# neighbours are then every other rank).  The Fortran 77 versions of array,
# mm and pi_send run too (cases NAME_f).  wave reads its step count on stdin.
# heat2D and wave draw their result with X11: recipes/llnl/no_drawing.c
# stands in for those routines (headless runs).
SRC_NAME=llnl-tutorials
LLNL_EX=mpi/examples
LLNL_PROGRAMS="array mm pi_send heat2D wave ringtopo cartesian bandwidth latency"
# The Fortran 77 versions of three (mpif.h, fixed form), as mpi_NAME_f;
# they pass one buffer as INTEGER and REAL*8, which gfortran 10 and later
# refuse without -fallow-argument-mismatch.
LLNL_FORTRAN="array mm pi_send"

build_program() {
  local p
  cc -O2 -c -o no_drawing.o "$REALCODE/recipes/llnl/no_drawing.c" || return 1
  for p in $LLNL_PROGRAMS; do
    "$CZ_CC" -g -O2 -o "$LLNL_EX/mpi_$p" "$LLNL_EX/mpi_$p.c" no_drawing.o -lm || return 1
  done
  for p in $LLNL_FORTRAN; do
    "$CZ_FC" -g -O2 -fallow-argument-mismatch -o "$LLNL_EX/mpi_${p}_f" "$LLNL_EX/mpi_$p.f" || return 1
  done
}

rewrite_args() {
  REWRITE_ARGS=(-- -std=gnu99)
}

# llnl_case NAME NP [ARGS...]: one traced run of mpi_NAME in its own folder.
llnl_case() {
  local name=$1 np=$2; shift 2
  mkdir -p "$P_OUT/$name/work"
  (cd "$P_OUT/$name/work" && cz_case "$name" "$np" 1 -- "$BUILD/$LLNL_EX/mpi_$name" "$@")
}

run_cases() {
  local np
  for np in 4 8; do
    llnl_case array $np
    llnl_case mm $np
    llnl_case pi_send $np
    llnl_case ringtopo $np
    llnl_case bandwidth $np
    llnl_case array_f $np
    llnl_case mm_f $np
    llnl_case pi_send_f $np
    (cd "$P_OUT" && mkdir -p wave/work && cd wave/work && echo 200 > steps.txt &&
      cz_case wave $np 1 -- sh -c "exec '$BUILD/$LLNL_EX/mpi_wave' < steps.txt")
  done
  llnl_case heat2D 4
  llnl_case heat2D 9
  llnl_case ringtopo 3
  llnl_case cartesian 16
  llnl_case latency 2
}
