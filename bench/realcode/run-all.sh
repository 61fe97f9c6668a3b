#!/bin/bash
# run-all.sh PREFIX OUT [PROGRAM...]: every program of the suite (or the ones
# named), one after the other, then OUT/SUMMARY.md.
set -u
if [ $# -lt 2 ]; then echo "usage: $0 PREFIX OUT [PROGRAM...]" >&2; exit 2; fi
REALCODE=$(cd "$(dirname "$0")" && pwd)
prefix=$1 out=$2; shift 2
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=($(cat "$REALCODE/programs/ORDER"))
t0=$SECONDS failed=()
for p in "${programs[@]}"; do
  echo "=== $p ($((SECONDS - t0)) s so far)" >&2
  "$REALCODE/run-one.sh" "$prefix" "$out" "$p" || failed+=("$p")
done
python3 "$REALCODE/lib/summary.py" "$out" > "$out/SUMMARY.md" || echo "summary failed" >&2
python3 "$REALCODE/lib/fp_table.py" "$out" > "$out/FP_TABLE.md" || echo "false-positive table failed" >&2
echo "=== all done in $((SECONDS - t0)) s; summary: $out/SUMMARY.md, $out/FP_TABLE.md${failed[*]:+; failed: ${failed[*]}}" >&2
