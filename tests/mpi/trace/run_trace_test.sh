#!/usr/bin/env bash
# run_trace_test.sh MODE MPIEXEC NP PROGRAM TRACER_SO CHECKER
# MODE: linked   PROGRAM links the tracer; threads; full check
#       preload  PROGRAM does not link it; mpirun -x LD_PRELOAD; full check
#       existing the trace directory already holds a trace: one warning,
#                the program runs untraced, the old trace is untouched
#       unwritable the trace directory cannot be created: one warning, the
#                program runs untraced
#       aborted  PROGRAM is trace_abort: rank 1 calls MPI_Abort, then (through
#                `collectivize run`) raises SIGKILL; CHECKER is
#                check_aborted.py, the 7th argument the CLI
#       fulldisk PROGRAM is trace_abort (mode finish) tracing into a 12 MiB
#                file system (a private tmpfs mount): one warning per rank,
#                the program finishes, the records stay; after the file
#                system grows, `trace repair` makes the trace readable with
#                every event recorded before the disk filled. Exit 77 (skip)
#                where mount namespaces are not permitted.
#       blocks   linked, with COLLECTIVIZE_TRACE_BLOCK_BYTES=4: the full check
#                (block CRCs change nothing else), then check_blocks.py
#                (beside CHECKER) on the rank-N.blocks files
#       private  traces are private: with umask 022 the directory is 0700
#                and every file 0600; COLLECTIVIZE_TRACE_MODE=0750 gives
#                0750/0640; a directory of another user, and one reached
#                through another user's symbolic link in a world-writable
#                directory, are refused (one warning, the program runs
#                untraced, nothing is written there)
#       run_verb `collectivize run` (7th argument: the CLI) traces PROGRAM
#                by preloading; the full check, then the reader's view
#                (`trace dump`) must agree with otf2-print's
# Environment: CZ_MPIRUN_FLAGS, the options every launch needs here (Open
# MPI: root, oversubscription), CZ_MPI_FAMILY (OpenMPI or MPICH).
set -euo pipefail
mode=$1 mpiexec=$2 np=$3 prog=$4 tracer=$5 checker=$6 cli=${7:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-trace-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
read -r -a flags <<< "${CZ_MPIRUN_FLAGS:-}"
mpirun=("$mpiexec" "${flags[@]}" -n "$np")
# A variable for every rank, in the launcher's words.
if [ "${CZ_MPI_FAMILY:-OpenMPI}" = MPICH ]; then pass_env() { echo -genv "$1" "$2"; }
else pass_env() { echo -x "$1=$2"; }; fi
mkdir "$work/expect"
export COLLECTIVIZE_TRACE_DIR="$work/trace"
run() { timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) "${mpirun[@]}" "$@" >"$work/out.txt" 2>"$work/err.txt" || {
  echo "mpirun failed"; cat "$work/out.txt" "$work/err.txt"; exit 1; }; }
case $mode in
  linked)
    # Receivers hash too: their CRC must equal the sender's.
    COLLECTIVIZE_TRACE_HASH=both run "$prog" "$work/expect" threads
    grep -q "trace_test: done ($np ranks, threads)" "$work/out.txt"
    python3 "$checker" "$work/trace" "$work/expect" "$np" ;;
  blocks)
    COLLECTIVIZE_TRACE_BLOCK_BYTES=4 run "$prog" "$work/expect"
    grep -q "trace_test: done ($np ranks)" "$work/out.txt"
    python3 "$checker" "$work/trace" "$work/expect" "$np"
    python3 "$(dirname "$checker")/check_blocks.py" "$work/trace" "$np" 4 ;;
  run_verb)
    COLLECTIVIZE_TRACE_LIB="$tracer" COLLECTIVIZE_MPIRUN="$mpiexec" timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) \
      "$cli" run -np "$np" --trace-dir "$work/trace" -- "$prog" "$work/expect" \
      >"$work/out.txt" 2>"$work/err.txt" || {
        echo "collectivize run failed"; cat "$work/out.txt" "$work/err.txt"; exit 1; }
    grep -q "trace_test: done ($np ranks)" "$work/out.txt"
    grep -q "$work/trace" "$work/out.txt" "$work/err.txt"
    python3 "$checker" "$work/trace" "$work/expect" "$np"
    "$cli" trace dump "$work/trace" >"$work/dump.txt"
    timeout $((60 * ${CZ_TIMEOUT_SCALE:-1})) otf2-print "$work/trace/traces.otf2" >"$work/print.txt" 2>/dev/null
    for kind in MPI_SEND MPI_RECV MPI_ISEND MPI_IRECV; do
      want=$(grep -c "^$kind " "$work/print.txt" || true)
      word=$(echo "$kind" | tr 'A-Z' 'a-z' | sed 's/^mpi_//')
      got=$(grep -cE "^rank [0-9]+ +t=[0-9.]+us +$word " "$work/dump.txt" || true)
      [ "$want" = "$got" ] || {
        echo "$kind: otf2-print shows $want, trace dump $got"; exit 1; }
    done ;;
  aborted)
    all_ranks=$(seq -s ' ' 0 $((np - 1)))
    # More events per rank (80,005) than one segment of the event log holds.
    if timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) "${mpirun[@]}" "$prog" 40000 abort >"$work/out.txt" 2>"$work/err.txt"; then
      echo "mpirun should have failed (MPI_Abort)"; exit 1; fi
    # That every rank reached MPI_Abort is proven by its marker in the trace
    # (check_aborted.py), not by its stdout: MPICH's launcher may drop the
    # lines still in its pipes when the job is aborted (seen in CI, 1 in 15).
    [ ! -e "$work/trace/traces.otf2" ]
    if "$cli" trace summary "$work/trace" 2>"$work/summary-err.txt"; then
      echo "reading an unrepaired trace should fail"; exit 1; fi
    grep -q "did not reach MPI_Finalize.*collectivize trace repair" "$work/summary-err.txt" || {
      cat "$work/summary-err.txt"; exit 1; }
    "$cli" trace repair "$work/trace" >"$work/repair.txt"
    grep -qE "rank 0: 8000[5-9] events recovered;" "$work/repair.txt" || {
      cat "$work/repair.txt"; exit 1; }
    python3 "$checker" "$work/trace" "$np" 40000 "$all_ranks" "$cli"
    # Every rank's label is the truth: rank 1 aborted, the others were killed.
    for r in $all_ranks; do
      grep -qE "rank $r: [0-9]+ events recovered; it did not reach MPI_Finalize \(aborted or killed" \
        "$work/repair.txt" || { echo "rank $r: wrong label"; cat "$work/repair.txt"; exit 1; }
    done
    "$cli" trace repair "$work/trace" >"$work/again.txt"
    grep -q "$work/trace was already repaired (.*): nothing left to repair" "$work/again.txt" || {
      cat "$work/again.txt"; exit 1; }
    # SIGKILL, through `collectivize run`, which repairs by itself.
    code=0
    COLLECTIVIZE_TRACE_LIB="$tracer" COLLECTIVIZE_MPIRUN="$mpiexec" timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) \
      "$cli" run -np "$np" --trace-dir "$work/killed" -- "$prog" 3000 kill \
      >"$work/out.txt" 2>"$work/err.txt" || code=$?
    # Open MPI's mpirun exits 128 + the signal, MPICH's Hydra the signal.
    [ "$code" = 137 ] || [ "${CZ_MPI_FAMILY:-OpenMPI}" = MPICH -a "$code" = 9 ] || {
      echo "expected exit 137 (Open MPI) or 9 (MPICH), got $code"; cat "$work/out.txt" "$work/err.txt"; exit 1; }
    grep -q "collectivize run: repaired" "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
    grep -q "incomplete ranks: $all_ranks\$" "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
    # Rank 1 was killed right after its marker: nothing of it is lost.
    python3 "$checker" "$work/killed" "$np" 3000 "$all_ranks" "$cli"
    # `run` repaired it already: repairing again says so and when.
    "$cli" trace repair "$work/killed" >"$work/again.txt"
    grep -q "$work/killed was already repaired (.*): nothing left to repair" "$work/again.txt" || {
      cat "$work/again.txt"; exit 1; } ;;
  fulldisk)
    mkdir "$work/fs"
    unshare -m true 2>/dev/null || { echo "skipped: no mount namespace here"; exit 77; }
    export mpiexec prog tracer checker cli np work
    unshare -m bash -euo pipefail -c '
      mount -t tmpfs -o size=12m tmpfs "$work/fs" || { echo "skipped: cannot mount tmpfs"; exit 77; }
      export COLLECTIVIZE_TRACE_DIR="$work/fs/trace"
      read -r -a flags <<< "${CZ_MPIRUN_FLAGS:-}"
      timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) "$mpiexec" "${flags[@]}" -n "$np" "$prog" 60000 finish >"$work/out.txt" 2>"$work/err.txt" || {
          echo "the program must finish despite the full disk"; cat "$work/out.txt" "$work/err.txt"; exit 1; }
      [ "$(grep -c "reached the end" "$work/out.txt")" = "$np" ]
      grep -q "No space left on device" "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
      for r in $(seq 0 $((np - 1))); do
        [ "$(grep -c "rank $r\]: trace: tracing stopped" "$work/err.txt")" -le 1 ]
        [ -e "$work/fs/trace/rank-$r.ring" ] || { echo "rank $r: records lost"; ls "$work/fs/trace"; exit 1; }
      done
      mount -o remount,size=512m "$work/fs"
      "$cli" trace repair "$work/fs/trace" >"$work/repair.txt" || { cat "$work/repair.txt"; exit 1; }
      for r in $(seq 0 $((np - 1))); do
        grep -q "rank $r: [0-9]* events recovered; it reached MPI_Finalize; tracing had stopped during the run because the disk was full" \
          "$work/repair.txt" || { echo "rank $r: wrong label"; cat "$work/repair.txt"; exit 1; }
      done
      ! grep -q "aborted or killed" "$work/repair.txt" || { cat "$work/repair.txt"; exit 1; }
      python3 "$checker" "$work/fs/trace" "$np" upto:60000 "" "$cli"
    ' ;;
  preload)
    read -r -a preload <<< "$(pass_env LD_PRELOAD "$tracer")"
    run "${preload[@]}" "$prog" "$work/expect"
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
  private)
    modes() { find "$1" -type "$2" ! -perm "$3" -printf '%m %p\n'; }
    (umask 022; run "$prog" "$work/expect")
    grep -q "trace_test: done" "$work/out.txt"
    [ -e "$work/trace/traces.otf2" ] && [ "$(stat -c %a "$work/trace")" = 700 ]
    bad=$(modes "$work/trace" d 700; modes "$work/trace" f 600)
    [ -z "$bad" ] || { echo "not private (want 700 and 600):"; echo "$bad"; exit 1; }
    export COLLECTIVIZE_TRACE_DIR="$work/group/trace"
    (umask 077; COLLECTIVIZE_TRACE_MODE=0750 run "$prog" "$work/expect")
    bad=$(modes "$work/group/trace" d 750; modes "$work/group/trace" f 640)
    [ -z "$bad" ] || { echo "COLLECTIVIZE_TRACE_MODE=0750 not honoured:"; echo "$bad"; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "skipped: giving files to another user needs root"; exit 77; }
    # Another user's directory (root can write there, but must not).
    mkdir "$work/theirs" && chown nobody "$work/theirs"
    export COLLECTIVIZE_TRACE_DIR="$work/theirs"
    run "$prog" "$work/expect"
    grep -q "trace_test: done" "$work/out.txt"
    [ "$(grep -c 'belongs to another user (uid 65534)' "$work/err.txt")" = 1 ] || {
      echo "expected one warning about the owner:"; cat "$work/err.txt"; exit 1; }
    [ -z "$(ls -A "$work/theirs")" ]
    # Another user's symbolic link in a world-writable, sticky directory.
    mkdir -m 1777 "$work/shared" && mkdir "$work/elsewhere"
    ln -s "$work/elsewhere" "$work/shared/link" && chown -h nobody "$work/shared/link"
    export COLLECTIVIZE_TRACE_DIR="$work/shared/link/trace"
    run "$prog" "$work/expect"
    grep -q "trace_test: done" "$work/out.txt"
    [ "$(grep -c "through the symbolic link $work/shared/link in $work/shared" "$work/err.txt")" = 1 ] || {
      echo "expected one warning about the link:"; cat "$work/err.txt"; exit 1; }
    [ -z "$(ls -A "$work/elsewhere")" ] ;;
  unwritable)
    export COLLECTIVIZE_TRACE_DIR=/dev/null/collectivize-trace
    run "$prog" "$work/expect"
    grep -q "trace_test: done" "$work/out.txt"
    [ "$(grep -c 'cannot create trace directory' "$work/err.txt")" = 1 ] || {
      echo "expected exactly one warning:"; cat "$work/err.txt"; exit 1; } ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "trace test $mode: ok"
