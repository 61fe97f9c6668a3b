#!/usr/bin/env bash
# run_fuzz_target.sh TARGET SEEDS DICT WORK_ROOT SECONDS [LIBFUZZER OPTIONS...]
# Runs one fuzz target for SECONDS from its seed corpus (read only) and the
# inputs it found before (WORK_ROOT/work/<target>, where new ones go), with
# its dictionary. Prints the inputs run and their rate; a crash, a sanitizer
# report or a broken invariant fails, with the input saved under
# WORK_ROOT/crashes/ and the command that reproduces it.
set -euo pipefail
target=$1 seeds=$2 dict=$3 root=$4 seconds=$5
shift 5
name=$(basename "$target")
work="$root/work/$name" crashes="$root/crashes"
mkdir -p "$work" "$crashes"
log="$root/$name.log"
# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that
# takes 2 GB is a finding too (readers must bound what they allocate).
status=0
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -dict="$dict" -artifact_prefix="$crashes/$name-" "$@" "$work" "$seeds" >"$log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
echo "$name: ${runs:-?} inputs in ${seconds} s (${rate:-?}/s), corpus $(ls "$work" | wc -l) found + $(ls "$seeds" | wc -l) seeds"
if [ "$status" != 0 ]; then
  grep -E "ERROR|SUMMARY|invariant|runtime error|Test unit written" "$log" | head -20
  echo "$name: FAILED (exit $status); full log: $log"
  echo "reproduce: $target $(ls -t "$crashes/$name-"* 2>/dev/null | head -1)"
  exit 1
fi
