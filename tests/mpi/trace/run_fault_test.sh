#!/usr/bin/env bash
# run_fault_test.sh MODE MPIEXEC NP PROGRAM TRACER CLI: `collectivize run`
# on a small file system of its own (a tmpfs in a private mount namespace),
# PROGRAM being trace_abort; every message must say what really happened.
# MODE: start     the file system is full before the run: the tracer says
#                 it cannot write the manifest, `run` that nothing was
#                 traced because the disk is full (never "aborted or
#                 killed", never "trace written"), and no directory is left
#       finalize  the file system fills just before MPI_Finalize (the
#                 program fills it): each rank says its records stay,
#                 `run` cannot repair yet and says how, `detect` names the
#                 empty anchor, the full disk and `trace repair`; with space
#                 again, repair labels every rank "reached MPI_Finalize, but
#                 the disk was full" (not "aborted or killed"), makes the
#                 trace complete with every exchange, and a second repair
#                 says the trace was already repaired
# Exit 77 (skip, with the reason) where mount namespaces or tmpfs mounts
# are not permitted.
set -euo pipefail
mode=$1 mpiexec=$2 np=$3 prog=$4 tracer=$5 cli=$6
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-fault-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/fs"
unshare -m true 2>/dev/null || { echo "skipped: no mount namespace here (unshare -m)"; exit 77; }
export mode mpiexec np prog tracer cli work
export COLLECTIVIZE_TRACE_LIB="$tracer" COLLECTIVIZE_MPIRUN="$mpiexec"
unshare -m bash -euo pipefail -c '
  fail() { echo "$1"; shift; cat "$@"; exit 1; }
  n=300 trace="$work/fs/trace"
  case $mode in
  start)
    mount -t tmpfs -o size=1m tmpfs "$work/fs" || { echo "skipped: cannot mount a tmpfs"; exit 77; }
    dd if=/dev/zero of="$work/fs/filler" bs=4k 2>/dev/null || true
    code=0
    timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) "$cli" run -np "$np" --trace-dir "$trace" -- "$prog" "$n" finish \
      >"$work/out.txt" 2>"$work/err.txt" || code=$?
    [ "$code" = 1 ] || fail "expected exit 1 (nothing traced), got $code" "$work/out.txt" "$work/err.txt"
    [ "$(grep -c "reached the end" "$work/out.txt")" = "$np" ] || fail "the program must finish" "$work/out.txt"
    grep -q "not tracing: cannot write $trace/collectivize-trace.txt: No space left on device" "$work/err.txt" ||
      fail "the tracer must name the full disk:" "$work/err.txt"
    grep -q "nothing was traced: the file system of $trace has 0 KiB free" "$work/err.txt" ||
      fail "run must name the full disk:" "$work/err.txt"
    ! grep -qE "aborted or killed|trace written|MPI_Init through" "$work/out.txt" "$work/err.txt" ||
      fail "an untrue message:" "$work/out.txt" "$work/err.txt"
    [ ! -e "$trace" ] || { echo "a trace directory was left:"; ls -la "$trace"; exit 1; } ;;
  finalize)
    mount -t tmpfs -o size=24m tmpfs "$work/fs" || { echo "skipped: cannot mount a tmpfs"; exit 77; }
    code=0
    timeout $((120 * ${CZ_TIMEOUT_SCALE:-1})) "$cli" run -np "$np" --trace-dir "$trace" -- "$prog" "$n" fill "$work/fs/filler" \
      >"$work/out.txt" 2>"$work/err.txt" || code=$?
    [ "$code" = 1 ] || fail "expected exit 1 (no readable trace yet), got $code" "$work/out.txt" "$work/err.txt"
    [ "$(grep -c "reached the end" "$work/out.txt")" = "$np" ] || fail "the program must finish" "$work/out.txt"
    [ "$(grep -c "cannot write this rank.s OTF2 events (No space left on device" "$work/err.txt")" = "$np" ] ||
      fail "each rank must name the full disk once:" "$work/err.txt"
    grep -q "no readable trace yet: the ranks. records stay in $trace" "$work/err.txt" ||
      fail "run must say the records stay:" "$work/err.txt"
    ! grep -qE "aborted or killed|trace written" "$work/out.txt" "$work/err.txt" ||
      fail "an untrue message:" "$work/out.txt" "$work/err.txt"
    ! "$cli" detect "$trace" >/dev/null 2>"$work/detect.txt" || fail "detect must refuse" "$work/detect.txt"
    grep -q "anchor file is empty: the traced run reached MPI_Finalize but could not write its trace (the disk was full); recover .*collectivize trace repair $trace" \
      "$work/detect.txt" || fail "detect must say what happened and what to do:" "$work/detect.txt"
    rm "$work/fs/filler"
    "$cli" trace repair "$trace" >"$work/repair.txt" 2>&1 || fail "repair failed" "$work/repair.txt"
    ! grep -qE "aborted or killed|did not finish" "$work/repair.txt" || fail "an untrue label:" "$work/repair.txt"
    for r in $(seq 0 $((np - 1))); do
      grep -q "rank $r: [0-9]* events recovered; it reached MPI_Finalize, but the disk was full when it wrote its trace (every record is kept): its trace is complete" \
        "$work/repair.txt" || fail "rank $r: wrong label" "$work/repair.txt"
      sends=$("$cli" trace dump "$trace" | grep -cE "^rank $r +t=\S+ +send .* tag 1 " || true)
      [ "$sends" = "$n" ] || fail "rank $r: $sends of $n ring sends after repair" "$work/repair.txt"
    done
    grep -q "incomplete ranks: none" "$work/repair.txt" || fail "the trace must be complete" "$work/repair.txt"
    "$cli" trace repair "$trace" >"$work/again.txt" 2>&1 || fail "a second repair is not an error" "$work/again.txt"
    grep -q "$trace was already repaired (20[0-9-]* [0-9:]*): nothing left to repair" "$work/again.txt" ||
      fail "a second repair must say when the first was:" "$work/again.txt" ;;
  esac
'
echo "fault test $mode: ok"
