# Assignments-PCPC (peppe-99/Assignments-PCPC): course exercises with no build
# files; each compiled alone with collectivize-cc -std=gnu99 -g -O2 (the
# exercises index void* buffers, a GNU extension).  Cases at P = 4 and 8:
# ex3 broadcast/scatter (ex3 gather.c calls an undefined gather(): not built), ex4 scatter through mycollective.c,
# ring2 (prefix pipeline), array-smoothing (halo of K=2 cells; N=13 cells
# over P-1 workers, so P = 4 and 6: at P = 8 a worker owns 1 cell and the
# program reads before its array).  4th_assignment/exercise1/broadcasting
# is left out: it allocates 2 x 2.56 GB per rank (N = 640000000 floats).
SRC_NAME=Assignments-PCPC
PCPC_EXES="1st_assignment/exercise3/broadcast 1st_assignment/exercise3/scatter
1st_assignment/exercise4/main 3rd_assignment/exercise1/ring2
5th_assignment/array-smoothing"

build_program() {
  local e
  for e in $PCPC_EXES; do
    local extra=""; [ -f "$(dirname "$e")/mycollective.c" ] && extra="$(dirname "$e")/mycollective.c"
    "$CZ_CC" -std=gnu99 -g -O2 -I"$(dirname "$e")" -o "$e" "$e.c" $extra -lm || return 1
  done
}

pcpc_case_name() {
  case $1 in
    */exercise3/*) echo "ex3-$(basename "$1")";; */exercise4/main) echo ex4-scatter;;
    */broadcasting) echo broadcasting;; */ring2) echo ring2;; */array-smoothing) echo array-smoothing;;
  esac
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -std=gnu99 -I"$BUILD/1st_assignment/exercise4")
}

run_cases() {
  local e np name
  for e in $PCPC_EXES; do
    name=$(pcpc_case_name "$e"); mkdir -p "$P_OUT/$name/work"
    for np in 4 8; do
      [ "$name" = array-smoothing ] && [ $np = 8 ] && np=6
      (cd "$P_OUT/$name/work" && cz_case "$name" $np 1 -- "$BUILD/$e")
    done
  done
  (cd "$P_OUT/ex4-scatter/work" && cz_case ex4-scatter 4 2 -- "$BUILD/1st_assignment/exercise4/main")
}
