# HPL 2.3 (icl-utk-edu/hpl): the legacy Make.<arch> build with our own
# recipes/hpl/Make.cz (Debian -lblas, MPI through collectivize-cc).
# Cases: N=256, NB=32, BCAST 0..5 at P x Q = 1x4 and 2x4; two cases twice.
SRC_NAME=hpl

build_program() {
  cp "$REALCODE/recipes/hpl/Make.cz" Make.cz
  make arch=cz TOPdir="$BUILD" CZ_PREFIX="$PREFIX" startup &&
  make -j2 arch=cz TOPdir="$BUILD" CZ_PREFIX="$PREFIX" build &&
  test -x bin/cz/xhpl
}

# hpl_dat P Q BCAST: HPL.dat for one test (right-looking recursive panel
# factorisation, lookahead depth 1, mixed swapping with threshold 64).
hpl_dat() {
  sed -e "s/@P@/$1/" -e "s/@Q@/$2/" -e "s/@BCAST@/$3/" "$REALCODE/recipes/hpl/HPL.dat.in"
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -DHPL_CALL_CBLAS -I"$BUILD/include" -I"$BUILD/include/cz")
}

run_cases() {
  local grid p q b
  for grid in 1x4 2x4; do
    p=${grid%x*}; q=${grid#*x}
    for b in 0 1 2 3 4 5; do
      local wd=$P_OUT/bcast$b-$grid/work
      mkdir -p "$wd"; hpl_dat "$p" "$q" "$b" > "$wd/HPL.dat"
      (cd "$wd" && cz_case "bcast$b-$grid" $((p * q)) 1 -- "$BUILD/bin/cz/xhpl")
      if { [ $b = 0 ] && [ $grid = 1x4 ]; } || { [ $b = 5 ] && [ $grid = 2x4 ]; }; then
        (cd "$wd" && cz_case "bcast$b-$grid" $((p * q)) 2 -- "$BUILD/bin/cz/xhpl")
      fi
    done
  done
}
