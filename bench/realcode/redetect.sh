#!/bin/bash
# redetect.sh PREFIX FROM OUT [PROGRAM...]: detection and rewriting only, on
# the traces a full run stored in FROM, with install PREFIX's collectivize.
# OUT starts as a hard-linked copy of FROM (FROM is not changed: every file
# this writes is removed first, which breaks its link); builds and traces
# are reused, so a change of the detector or rewriter is judged on the same
# traces in minutes instead of a full run.
set -u
if [ $# -lt 3 ]; then echo "usage: $0 PREFIX FROM OUT [PROGRAM...]" >&2; exit 2; fi
REALCODE=$(cd "$(dirname "$0")" && pwd)
[ -x "$1/bin/collectivize" ] || { echo "$1/bin/collectivize not found" >&2; exit 2; }
[ -d "$2" ] || { echo "no run at $2 (run-all.sh PREFIX $2 makes one)" >&2; exit 2; }
from=$(cd "$2" && pwd) out=$3
[ -e "$out" ] && { echo "$out exists: give a new directory" >&2; exit 2; }
prefix=$1; shift 3
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=($(cat "$REALCODE/programs/ORDER"))
cp -al "$from" "$out" || exit 1
source "$REALCODE/lib/common.sh"
t0=$SECONDS
for p in "${programs[@]}"; do
  [ -d "$out/$p" ] || { log "$p: not in $from, skipped"; continue; }
  # A subshell per program: recipes define the same function names.
  (
    source "$REALCODE/programs/$p.sh"
    cz_setup "$prefix" "$out" "$p"
    for trace in "$P_OUT"/*/trace-np*; do
      [ -d "$trace" ] || continue
      dir=$(dirname "$trace") tag=${trace##*/trace-}
      cz_detect_rewrite "$dir" "$tag" || log "${dir##*/} $tag: DETECT FAILED"
    done
    rm -f "$P_OUT/score.txt" "$P_OUT/score.json" # hard links to FROM's (see above)
    python3 "$REALCODE/lib/score.py" "$OUT_ROOT" "$PROGRAM" > "$P_OUT/score.txt" 2>&1 ||
      log "scoring failed, see $P_OUT/score.txt"
    log "$(awk '/^== /{n++; for(i=2;i<=NF;i++){if($(i-1)=="missed")m+=$i; if($(i-1)=="FP"&&$i=="confirmed")f+=$(i+1)}}
               END{printf "%d cases: missed %d, confirmed false positives %d", n, m, f}' "$P_OUT/score.txt")"
  )
done
rm -f "$out/SUMMARY.md" "$out/FP_TABLE.md"
python3 "$REALCODE/lib/summary.py" "$out" > "$out/SUMMARY.md" || echo "summary failed" >&2
python3 "$REALCODE/lib/fp_table.py" "$out" > "$out/FP_TABLE.md" || echo "false-positive table failed" >&2
echo "=== redetected in $((SECONDS - t0)) s; summary: $out/SUMMARY.md, $out/FP_TABLE.md" >&2
