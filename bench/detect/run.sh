#!/usr/bin/env bash
# bench/detect/run.sh [BUILD_DIR] [OUT_DIR] [ITERATIONS] [RANKS]
# Traces cz_detect_mixed_patterns (binomial bcast, ring allgather, pairwise
# alltoall and noise per iteration), then times `collectivize detect` on it
# three times: events per second (wall and CPU) and peak memory per event.
# Writes OUT_DIR/throughput.csv and prints it.
set -euo pipefail
build=${1:-build} out=${2:-bench/results/detector} iters=${3:-3000} np=${4:-8}
cz="$build/cli/collectivize" prog="$build/bench/cz_detect_mixed_patterns"
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-detect-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "tracing $np ranks x $iters iterations ..." >&2
"$cz" run -np "$np" --trace-dir "$work/trace" -- "$prog" "$iters" >"$work/run.txt"
events=$(sed -n 's/^ranks: [0-9]*, events: \([0-9]*\)$/\1/p' "$work/run.txt")
mkdir -p "$out"
csv="$out/throughput.csv"
echo "run,ranks,iterations,events,wall_s,cpu_s,max_rss_kb,events_per_s_wall,events_per_s_cpu,bytes_per_event" >"$csv"
for run in 1 2 3; do
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$cz" detect "$work/trace" -o "$work/report.json" >"$work/detect.txt"
  read -r wall user sys rss <"$work/time.txt"
  python3 - "$run" "$np" "$iters" "$events" "$wall" "$user" "$sys" "$rss" >>"$csv" <<'PY'
import sys
run, np_, it, ev, wall, user, sys_, rss = sys.argv[1:]
ev = int(ev); wall = float(wall); cpu = float(user) + float(sys_); rss = int(rss)
print(f"{run},{np_},{it},{ev},{wall:.3f},{cpu:.3f},{rss},{ev / wall:.0f},{ev / cpu:.0f},{rss * 1024 / ev:.1f}")
PY
done
cat "$csv"
grep -E "confirmed|^(bcast|allgather|alltoall|gather|scatter|reduce|allreduce|barrier) on" "$work/detect.txt" >&2
