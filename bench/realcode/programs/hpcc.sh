# HPC Challenge 1.5.0 (icl-utk-edu/hpcc): HPL 2.0 plus DGEMM, STREAM,
# PTRANS, RandomAccess, FFT and b_eff (the latency and bandwidth
# benchmark), one binary. HPL's hand-made broadcasts and reductions are
# there as in HPL's own recipe; b_eff's ping-pongs and rings reach every
# rank from every rank without being collectives (negative labels), and
# RandomAccess's ranks tell every other when they are done. Built with
# HPCC's makefile and our recipes/hpl/Make.cz (TOPdir: its hpl/ copy).
# Cases: hpccinf.txt from recipes/hpcc (HPL N = 256, NB = 32, BCAST 1 =
# 1-ring modified) on a 2x2 grid (P = 4) and a 2x4 grid (P = 8).
SRC_NAME=hpcc

build_program() {
  cp "$REALCODE/recipes/hpl/Make.cz" hpl/Make.cz
  make arch=cz TOPdir="$BUILD/hpl" CZ_PREFIX="$PREFIX" && test -x hpcc
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -DHPL_CALL_CBLAS -I"$BUILD/include" -I"$BUILD/hpl/include" -I"$BUILD/hpl/include/cz")
}

run_cases() {
  local grid p q
  for grid in 2x2 2x4; do
    p=${grid%x*}; q=${grid#*x}
    local wd=$P_OUT/all-$grid/work
    mkdir -p "$wd"
    sed -e "s/@P@/$p/" -e "s/@Q@/$q/" -e "s/@BCAST@/1/" "$REALCODE/recipes/hpcc/hpccinf.txt.in" > "$wd/hpccinf.txt"
    (cd "$wd" && cz_case "all-$grid" $((p * q)) 1 -- "$BUILD/hpcc")
  done
}
