# NAS Parallel Benchmarks 3.3, MPI version (mbdevpl/nas-parallel-benchmarks,
# a mirror of NASA's release: NPB3.3-MPI/), class S, built with our
# recipes/npb/make.def.in (collectivize-fc and collectivize-cc, -g). NPB
# fixes the process count at build time, so each kernel is built once per
# P. Cases: cg at P = 8 and 16 (the processor grid has rows of 4 there;
# at P = 4 the rows have 2 ranks, whose swaps prove nothing), mg at P = 4
# and 8 (halo exchanges only), is at P = 4 and 8 (library collectives and
# one shift), lu at P = 4 and 8 (a wavefront and halos), sp and bt at
# P = 4 and 9 (square counts: multi-partition face exchanges and
# pipelined solves). Fortran kernels have return-address sites named
# from -g; IS (C) has a site database.
SRC_NAME=NPB
NPB=NPB3.3-MPI
NPB_BUILDS="cg:8 cg:16 mg:4 mg:8 is:4 is:8 lu:4 lu:8 sp:4 sp:9 bt:4 bt:9"

build_program() {
  local b kernel np
  sed -e "s|@FC@|$CZ_FC|" -e "s|@CC@|$CZ_CC|" "$REALCODE/recipes/npb/make.def.in" > $NPB/config/make.def
  mkdir -p $NPB/bin
  for b in $NPB_BUILDS; do
    kernel=${b%:*} np=${b#*:}
    (cd $NPB && make "${kernel^^}" NPROCS=$np CLASS=S) || return 1
    test -x $NPB/bin/$kernel.S.$np || return 1
  done
}

run_cases() {
  local b kernel np
  for b in $NPB_BUILDS; do
    kernel=${b%:*} np=${b#*:}
    mkdir -p "$P_OUT/$kernel/work"
    (cd "$P_OUT/$kernel/work" && cz_case $kernel $np 1 -- "$BUILD/$NPB/bin/$kernel.S.$np")
  done
}
