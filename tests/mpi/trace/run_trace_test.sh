#!/usr/bin/env bash
# run_trace_test.sh MODE MPIEXEC NP PROGRAM TRACER_SO CHECKER
# MODE: linked   PROGRAM links the tracer; threads; full check
#       preload  PROGRAM does not link it; mpirun -x LD_PRELOAD; full check
#       existing the trace directory already holds a trace: one warning,
#                the program runs untraced, the old trace is untouched
#       unwritable the trace directory cannot be created: one warning, the
#                program runs untraced
#       run_verb `collectivize run` (7th argument: the CLI) traces PROGRAM
#                by preloading; the full check, then the reader's view
#                (`trace dump`) must agree with otf2-print's
set -euo pipefail
mode=$1 mpiexec=$2 np=$3 prog=$4 tracer=$5 checker=$6 cli=${7:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-trace-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mpirun=("$mpiexec" --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 -n "$np")
mkdir "$work/expect"
export COLLECTIVIZE_TRACE_DIR="$work/trace"
run() { timeout 120 "${mpirun[@]}" "$@" >"$work/out.txt" 2>"$work/err.txt" || {
  echo "mpirun failed"; cat "$work/out.txt" "$work/err.txt"; exit 1; }; }
case $mode in
  linked)
    run "$prog" "$work/expect" threads
    grep -q "trace_test: done ($np ranks, threads)" "$work/out.txt"
    python3 "$checker" "$work/trace" "$work/expect" "$np" ;;
  run_verb)
    COLLECTIVIZE_TRACE_LIB="$tracer" COLLECTIVIZE_MPIRUN="$mpiexec" timeout 120 \
      "$cli" run -np "$np" --trace-dir "$work/trace" -- "$prog" "$work/expect" \
      >"$work/out.txt" 2>"$work/err.txt" || {
        echo "collectivize run failed"; cat "$work/out.txt" "$work/err.txt"; exit 1; }
    grep -q "trace_test: done ($np ranks)" "$work/out.txt"
    grep -q "$work/trace" "$work/out.txt" "$work/err.txt"
    python3 "$checker" "$work/trace" "$work/expect" "$np"
    "$cli" trace dump "$work/trace" >"$work/dump.txt"
    timeout 60 otf2-print "$work/trace/traces.otf2" >"$work/print.txt" 2>/dev/null
    for kind in MPI_SEND MPI_RECV MPI_ISEND MPI_IRECV; do
      want=$(grep -c "^$kind " "$work/print.txt" || true)
      word=$(echo "$kind" | tr 'A-Z' 'a-z' | sed 's/^mpi_//')
      got=$(grep -cE "^rank [0-9]+ +t=[0-9.]+us +$word " "$work/dump.txt" || true)
      [ "$want" = "$got" ] || {
        echo "$kind: otf2-print shows $want, trace dump $got"; exit 1; }
    done ;;
  preload)
    run -x LD_PRELOAD="$tracer" "$prog" "$work/expect"
    grep -q "trace_test: done ($np ranks)" "$work/out.txt"
    python3 "$checker" "$work/trace" "$work/expect" "$np" ;;
  existing)
    mkdir -p "$work/trace"
    printf 'format 1\nranks 99\n' > "$work/trace/collectivize-trace.txt"
    run "$prog" "$work/expect"
    grep -q "trace_test: done" "$work/out.txt"
    [ "$(grep -c 'already holds a trace' "$work/err.txt")" = 1 ] || {
      echo "expected exactly one warning:"; cat "$work/err.txt"; exit 1; }
    grep -q '^ranks 99$' "$work/trace/collectivize-trace.txt"
    [ ! -e "$work/trace/traces.otf2" ] && ! ls "$work/trace"/rank-*.done 2>/dev/null ;;
  unwritable)
    export COLLECTIVIZE_TRACE_DIR=/dev/null/collectivize-trace
    run "$prog" "$work/expect"
    grep -q "trace_test: done" "$work/out.txt"
    [ "$(grep -c 'cannot create trace directory' "$work/err.txt")" = 1 ] || {
      echo "expected exactly one warning:"; cat "$work/err.txt"; exit 1; } ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "trace test $mode: ok"
