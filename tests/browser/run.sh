#!/usr/bin/env bash
# run.sh: the report's browser test (ctest `report_browser`). Makes real
# inputs (a traced run of an example, its detection report, the runtime's
# step export under mpirun), writes reports with `collectivize report`, and
# drives Debian's chromium through playwright-core and firefox-esr through
# puppeteer-core over them (report.test.js). Screenshots go to OUT/shots.
#
#   run.sh COLLECTIVIZE STEP_EXPORT EXAMPLES_DIR SOURCE_DIR OUT_DIR MPIEXEC
#
# Without chromium or playwright-core it exits 77 (ctest: skipped), and
# without firefox-esr or puppeteer-core it skips the Firefox pass, unless
# COLLECTIVIZE_REQUIRE_BROWSER=1 (set by scripts/run, so CI fails instead).
set -euo pipefail
cz=$1 step_export=$2 examples=$3 src=$4 out=$5 mpiexec=$6
chromium=${CZ_CHROMIUM:-/usr/bin/chromium}
firefox=${CZ_FIREFOX_BIN:-/usr/bin/firefox-esr}
modules=${CZ_NODE_MODULES:-$src/tests/browser/node_modules}
require=${COLLECTIVIZE_REQUIRE_BROWSER:-0}

missing=""
command -v node >/dev/null || missing="node (apt-get install nodejs)"
[ -x "$chromium" ] || missing="$missing chromium ($chromium; apt-get install chromium)"
[ -d "$modules/playwright-core" ] ||
  missing="$missing playwright-core (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix $src/tests/browser)"
# Firefox is checked too where it is installed (always under scripts/run).
use_firefox=$firefox
if [ ! -x "$firefox" ] || [ ! -d "$modules/puppeteer-core" ]; then
  use_firefox=""
  if [ "$require" = 1 ]; then
    missing="$missing firefox-esr ($firefox) or puppeteer-core"
  else
    echo "report_browser: firefox pass skipped: firefox-esr or puppeteer-core missing"
  fi
fi
if [ -n "$missing" ]; then
  if [ "$require" = 1 ]; then
    echo "report_browser: FAILED: missing$missing (scripts/run installs them)" >&2
    exit 1
  fi
  echo "report_browser: SKIPPED: missing$missing; bash scripts/run setup installs them"
  exit 77
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=("$mpiexec" --oversubscribe --mca mpi_yield_when_idle 1)
rm -rf "$out"
mkdir -p "$out/shots"
cd "$out"

# What the runtime's algorithms really do, step by step.
"${mpirun[@]}" -np 8 "$step_export" steps-8.json
"${mpirun[@]}" -np 5 "$step_export" steps-5.json 2

# A real detection report: nested broadcasts (a bcast whose root rotates over
# 5 instances, and one from rank 0).
COLLECTIVIZE_QUIET=1 "$cz" run -np 6 --trace-dir trace -- "$examples/bcast_nested" > run.txt
"$cz" detect trace -o report.json > detect.txt
"$cz" report report.json --patches "$src/tests/report/Inputs/patches" \
  --bench "$src/bench/results/2026-11-23-dev-machine/grid/bench.csv" -o report.html

# The same verified patch with run times that overlap the original's: its
# gain is run-to-run spread, and the page must say so.
cp -r "$src/tests/report/Inputs/patches" spread-patches
sed -i -e 's/^  "patched": .*/  "patched": {"exit": 0, "seconds": [0.6, 0.62, 0.59, 0.61, 0.6], "median": 0.6, "min": 0.59, "max": 0.62},/' \
  -e 's/^  "speedup": .*/  "speedup": 1.02,/' spread-patches/01-bcast.verify.json
"$cz" report report.json --patches spread-patches --no-trace -o spread.html

# Bad inputs: each must be named on the page, the rest still drawn.
head -c 300 report.json > truncated.json
printf 'collective,procs\nnot,a,bench\n' > bad-bench.csv
printf 'alltoall 2-8 0-256 nosuchalgorithm\n' > bad-table.txt
mkdir -p bad-patches
printf '{"format": "collectivize-patches", "version": 9, "patches": []}' > bad-patches/patches.json
# (exit 1: inputs given could not be used; the page is written all the same)
if "$cz" report truncated.json --patches bad-patches --bench bad-bench.csv --table bad-table.txt \
  --trace no-such-trace -o bad.html 2> bad.txt; then
  echo "report with unusable inputs exited 0" >&2; exit 1
fi
"$cz" report -o empty.html 2> empty.txt
# Valid JSON of the right format whose matches lack fields or have odd types.
printf '%s' '{"format": "collectivize-detection", "version": 1, "ranks": "four", "matches": [
  {"kind": "bcast"}, {"kind": 3, "ranks": "x", "sites": {"a": 1}, "instances": null},
  {"kind": "alltoall", "ranks": [0, 1], "communicator": null, "sites": [{"id": 5, "file": 7, "line": "x"}]}]}' > odd.json
"$cz" report odd.json --no-trace -o odd.html 2> odd.txt

CZ_SRC="$src" NODE_PATH="$modules" CZ_CHROMIUM="$chromium" CZ_FIREFOX="$use_firefox" node "$src/tests/browser/report.test.js" "$out"
