# PAPA's test corpus (binoll/PAPA, tests/2018-3-16/LR2/): C++ student labs
# that re-implement collectives with point-to-point calls (mybarrier,
# mybcast, mygather, myscatter, myallgather, myalltoall), each followed by
# the library collective for timing.  Each file built alone with
# collectivize-c++ -g -O2.  Cases at P = 4 and 8, root 0 where the program
# takes one (-r 0; mybcast -t 16 bytes).
SRC_NAME=PAPA
PAPA_LAB=tests/2018-3-16/LR2
PAPA_CASES="barrier:1-1: bcast:1-2:-r,0,-t,16 gather:1-3:-r,0 scatter:1-4:-r,0 allgather:1-5: alltoall:1-6:"

build_program() {
  local c name n args
  for c in $PAPA_CASES; do
    IFS=: read -r name n args <<< "$c"
    "$CZ_CXX" -g -O2 -o "$PAPA_LAB/$name" "$PAPA_LAB/2018-3-16_parallel_LR2_$n.cpp" || return 1
  done
}

run_cases() {
  local c name n args np
  for c in $PAPA_CASES; do
    IFS=: read -r name n args <<< "$c"
    mkdir -p "$P_OUT/$name/work"
    for np in 4 8; do
      (cd "$P_OUT/$name/work" && cz_case "$name" $np 1 -- "$BUILD/$PAPA_LAB/$name" ${args//,/ })
    done
  done
}
