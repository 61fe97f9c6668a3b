#!/usr/bin/env bash
# bench/detect/run.sh [BUILD_DIR] [OUT_DIR] [ITERATIONS] [RANKS]
# Traces cz_detect_mixed_patterns (binomial bcast, ring allgather, pairwise
# alltoall and noise per iteration), then times `collectivize detect` on it:
# serial runs (REPEATS, default 3), interleaved with a reference build's
# collectivize when REF_CZ names one (its report must be the same: kinds,
# instances, sites, every field but the trace path), and the parallel mode
# under mpirun for each process count of PROCS (default "1 2 4").
# Times are of the whole command (start-up, reading, analyses, report);
# cpu = user + sys (sys: mostly the kernel zeroing fresh pages, which on a
# VM varies from run to run with what the host still backs).
# Writes OUT_DIR/throughput-DATE.csv (runs; machine load beside each),
# OUT_DIR/phases-DATE.csv (serial phase times from --progress) and
# OUT_DIR/parallel-phases-DATE.csv (the parallel mode's phases per process,
# and process 0's analyses, from --progress) and prints them. WINDOW=n
# passes --window-messages n to every run (serial and parallel): the
# windowed analysis, window w on process w mod N.
set -euo pipefail
build=${1:-build} out=${2:-bench/results/detector} iters=${3:-3000} np=${4:-8}
repeats=${REPEATS:-3} procs=${PROCS:-1 2 4} ref=${REF_CZ:-}
windowing=(); [ -n "${WINDOW:-}" ] && windowing=(--window-messages "$WINDOW")
cz="$build/cli/collectivize" prog="$build/bench/cz_detect_mixed_patterns"
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-detect-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
echo "tracing $np ranks x $iters iterations ..." >&2
"$cz" run -np "$np" --trace-dir "$work/trace" -- "$prog" "$iters" >"$work/run.txt"
events=$(sed -n 's/^ranks: [0-9]*, events: \([0-9]*\)$/\1/p' "$work/run.txt")
mkdir -p "$out"
stamp=$(date -u +%Y-%m-%dT%H%M)
csv="$out/throughput-$stamp.csv" phases="$out/phases-$stamp.csv"
echo "when_utc,load_1min,binary,mode,processes,run,ranks,iterations,events,wall_s,cpu_s,user_s,sys_s,max_rss_kb,events_per_s_wall,events_per_s_cpu,bytes_per_event,same_report" >"$csv"
echo "run,phase,wall_s,cpu_s,peak_mb" >"$phases"
pphases="$out/parallel-phases-$stamp.csv"
echo "run,processes,process,phase,wall_s,peak_mb" >"$pphases"

# Same report as the first serial run of this build (the trace path aside).
same() {
  python3 - "$work/first.json" "$1" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a.pop("trace", None); b.pop("trace", None)
print("yes" if a == b else "NO")
PY
}
# timed LABEL MODE PROCS RUN REPORT -- COMMAND...
timed() {
  local label=$1 mode=$2 n=$3 run=$4 report=$5
  shift 6
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" >"$work/detect.txt" 2>"$work/progress.txt"
  read -r wall user sys rss <"$work/time.txt"
  [ -f "$work/first.json" ] || cp "$report" "$work/first.json"
  local ok
  ok=$(same "$report")
  python3 - "$(date -u +%H:%M:%S)" "$load" "$label" "$mode" "$n" "$run" "$np" "$iters" "$events" \
    "$wall" "$user" "$sys" "$rss" "$ok" >>"$csv" <<'PY'
import sys
when, load, label, mode, n, run, np_, it, ev, wall, user, sys_, rss, ok = sys.argv[1:]
ev = int(ev); wall = float(wall); cpu = float(user) + float(sys_); rss = int(rss)
print(f"{when},{load},{label},{mode},{n},{run},{np_},{it},{ev},{wall:.3f},{cpu:.3f},"
      f"{float(user):.3f},{float(sys_):.3f},{rss},"
      f"{ev / wall:.0f},{ev / cpu:.0f},{rss * 1024 / ev:.1f},{ok}")
PY
}

for run in $(seq 1 "$repeats"); do
  timed this serial 1 "$run" "$work/report.json" -- \
    "$cz" detect "$work/trace" "${windowing[@]}" --progress -o "$work/report.json"
  sed -n 's/^collectivize detect: \(.*[a-z]\) *\([0-9.]*\) s (cpu \([0-9.]*\) s, peak \([0-9]*\) MB)$/\1,\2,\3,\4/p' \
    "$work/progress.txt" | sed "s/^/$run,/" >>"$phases"
  if [ -n "$ref" ]; then
    timed reference serial 1 "$run" "$work/ref.json" -- "$ref" detect "$work/trace" -o "$work/ref.json"
  fi
done
for run in $(seq 1 "$repeats"); do
  for n in $procs; do
    timed this parallel "$n" "$run" "$work/par.json" -- \
      mpirun -np "$n" "$cz" detect --parallel "$work/trace" "${windowing[@]}" --progress \
      -o "$work/par.json"
    python3 - "$run" "$n" "$work/progress.txt" >>"$pphases" <<'PY'
import re, sys
run, n, progress = sys.argv[1:]
names = ["decode", "match", "replay", "replay_waiting", "transfer"]
for line in open(progress):
    f = line.split()
    # per process: process ranks decode match replay waiting transfer peak ...
    if len(f) >= 11 and f[2].isdigit() and f[3].isdigit():
        vals = f[4:9]
        for name, v in zip(names, vals):
            print(f"{run},{n},{f[2]},{name},{float(v):.3f},{f[9]}")
        if len(f) >= 15:  # windowed: windows analysed, their seconds
            print(f"{run},{n},{f[2]},windows_{f[13]},{float(f[14]):.3f},{f[9]}")
        continue
    m = re.match(r"collectivize detect: (.*[a-z]) +([0-9.]+) s \(cpu [0-9.]+ s, peak ([0-9]+) MB\)", line)
    if m:
        print(f"{run},{n},0,{m.group(1).strip()},{float(m.group(2)):.3f},{m.group(3)}")
PY
  done
done
cat "$csv" "$phases" "$pphases"
grep -E "confirmed|^(bcast|allgather|alltoall|gather|scatter|reduce|allreduce|barrier) on" "$work/detect.txt" >&2
