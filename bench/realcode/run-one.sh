#!/bin/bash
# run-one.sh PREFIX OUT PROGRAM: build PROGRAM (programs/PROGRAM.sh) with the
# compiler wrappers of install PREFIX (reused when PREFIX is unchanged), then
# trace, detect and rewrite each of its cases into OUT/PROGRAM/, and score
# the reports against expect/PROGRAM.json.
set -u
if [ $# -ne 3 ]; then echo "usage: $0 PREFIX OUT PROGRAM" >&2; exit 2; fi
REALCODE=$(cd "$(dirname "$0")" && pwd)
recipe=$REALCODE/programs/$3.sh
[ -f "$recipe" ] || { echo "no recipe $recipe (programs: $(tr '\n' ' ' < "$REALCODE/programs/ORDER"))" >&2; exit 2; }
[ -x "$1/bin/collectivize" ] || { echo "$1/bin/collectivize not found" >&2; exit 2; }
source "$REALCODE/lib/common.sh"
source "$recipe"
cz_setup "$1" "$2" "$3"
t0=$SECONDS
cz_build "$SRC_NAME" || exit 1
run_cases
python3 "$REALCODE/lib/score.py" "$OUT_ROOT" "$PROGRAM" > "$P_OUT/score.txt" 2>&1 || log "scoring failed, see $P_OUT/score.txt"
log "done in $((SECONDS - t0)) s"
