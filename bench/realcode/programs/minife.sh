# miniFE 2.x reference (Mantevo/miniFE, ref/src) with its Makefile (MPI on),
# CXX=collectivize-c++.  Case: 24^3 box (-nx 24 -ny 24 -nz 24), P = 4, 8, 12.
SRC_NAME=miniFE

build_program() {
  cd ref/src && make -j2 CXX="$CZ_CXX" CC="$CZ_CC" CFLAGS="-O2 -g" && test -x miniFE.x
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -I"$BUILD/ref/src" -I"$BUILD/ref/utils" -I"$BUILD/ref/fem"
                -DMINIFE_SCALAR=double -DMINIFE_LOCAL_ORDINAL=int -DMINIFE_GLOBAL_ORDINAL=int
                -DMINIFE_CSR_MATRIX -DHAVE_MPI -DMPICH_IGNORE_CXX_SEEK -DMINIFE_REPORT_RUSAGE
                -DMINIFE_INFO=1 -DMINIFE_KERNELS=0)
}

run_cases() {
  local wd=$P_OUT/cg/work exe=$BUILD/ref/src/miniFE.x
  mkdir -p "$wd"; cd "$wd" || return
  cz_case cg 4 1 -- "$exe" -nx 24 -ny 24 -nz 24
  cz_case cg 8 1 -- "$exe" -nx 24 -ny 24 -nz 24
  cz_case cg 8 2 -- "$exe" -nx 24 -ny 24 -nz 24
  cz_case cg 12 1 -- "$exe" -nx 24 -ny 24 -nz 24
}
