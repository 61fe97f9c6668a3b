# APD lab 9 (ps2001/APD, Laboratoare/lab09/): course exercises, each built
# alone with collectivize-cc -g -O2 (their Makefiles call plain mpicc).
# Cases at P = 4 and 8 (reduce.c is only right for a power-of-two P: at
# P = 6 rank 4 receives from the absent rank 6): broadcast (binomial tree
# from 0), reduce (binomial tree sum to 0), scan (recursive-doubling prefix
# sum) and pipeline_sort (a chain of compare-and-forward stages).
SRC_NAME=APD
APD_LAB=Laboratoare/lab09

build_program() {
  local e
  cd "$APD_LAB" && mv "pipeline sort" pipeline_sort || return 1
  for e in broadcast/broadcast reduce/reduce scan/scan pipeline_sort/pipeline_sort; do
    "$CZ_CC" -std=gnu99 -g -O2 -o "$e" "$e.c" || return 1
  done
}

rewrite_args() {
  REWRITE_ARGS=(-- -std=gnu99)
}

run_cases() {
  local name np
  for name in broadcast reduce scan pipeline_sort; do
    mkdir -p "$P_OUT/$name/work"
    for np in 4 8; do
      (cd "$P_OUT/$name/work" && cz_case "$name" $np 1 -- "$BUILD/$APD_LAB/$name/$name")
    done
  done
}
