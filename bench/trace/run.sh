#!/usr/bin/env bash
# bench/trace/run.sh [BUILD_DIR] [OUT_DIR] [LAUNCHES]
# Tracer overhead on 2 ranks: cz_trace_overhead (ping-pong and a ring of
# MPI_Sendrecv, 8 B .. 1 MiB, medians of 7 repetitions per launch) is
# launched untraced and traced in turn, LAUNCHES pairs (the machine's speed
# drifts: compare pair by pair). A traced launch also times its loops with
# tracing paused, in the same run. An untraced launch also times the floor:
# the program hashing each payload and storing an 88-byte record itself,
# the least any such tracer adds to 257 B-16 KiB messages (trace_overhead.c;
# printed for those sizes only). Writes OUT_DIR/overhead.csv (every launch),
# OUT_DIR/summary.csv (per size: traced/untraced ratios, median min max) and
# prints the summary with the OTF2 trace bytes per event. cz_trace_cpu gives
# the tracer's CPU per event on the calling thread and in the whole process
# (5 launches each way), for C calls and, with cz_trace_cpu_fortran, for the
# same loop through the Fortran bindings, interleaved in the same run.
# YIELD=0 runs the ranks busy-polling (mpi_yield_when_idle 0: each rank has
# its own core, as mpirun does without --oversubscribe); default 1.
set -euo pipefail
# LAUNCHES=0: the CPU figures only (they hold on a loaded machine, the
# round trips do not).
build=${1:-build} out=${2:-bench/results/trace} launches=${3:-7}
prog="$build/bench/cz_trace_overhead" tracer="$build/runtime/trace/libcollectivize_trace.so"
cz="$build/cli/collectivize"
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-trace-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=${YIELD:-1}
mkdir -p "$out"
csv="$out/overhead.csv"
echo "launch,size,mode,pingpong_us,ring_us" >"$csv"
for i in $(seq "$launches"); do
  echo "launch pair $i/$launches (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  mpirun -n 2 "$prog" </dev/null | tail -n +2 |
    awk -F, -v i="$i" '$2 == "paused" {print i "," $1 ",untraced," $3 "," $4}
                       $2 == "floor" {print i "," $1 ",floor," $3 "," $4}' >>"$csv"
  rm -rf "$work/trace"
  COLLECTIVIZE_QUIET=1 COLLECTIVIZE_TRACE_DIR="$work/trace" \
    mpirun -n 2 -x LD_PRELOAD="$tracer" "$prog" </dev/null | tail -n +2 |
    awk -F, -v i="$i" '$2 != "floor" {print i "," $1 "," $2 "," $3 "," $4}' >>"$csv"
done
# The C loop and the same loop through the Fortran bindings, interleaved.
fortran="$build/bench/cz_trace_cpu_fortran"
[ -x "$fortran" ] || echo "no $fortran (the MPI has no Fortran wrapper): C figures only" >&2
cpu_untraced=() cpu_traced=() fcpu_untraced=() fcpu_traced=()
cpu_launch() {  # PROGRAM traced|untraced: prints "thread:process" ns per message
  rm -rf "$work/cpu"
  if [ "$2" = traced ]; then
    COLLECTIVIZE_QUIET=1 COLLECTIVIZE_TRACE_DIR="$work/cpu" \
      mpirun -n 1 -x LD_PRELOAD="$tracer" "$1" 200000 </dev/null | tr ' ' :
  else mpirun -n 1 "$1" 200000 </dev/null | tr ' ' :; fi
}
for i in 1 2 3 4 5; do
  cpu_untraced+=("$(cpu_launch "$build/bench/cz_trace_cpu" untraced)")
  cpu_traced+=("$(cpu_launch "$build/bench/cz_trace_cpu" traced)")
  if [ -x "$fortran" ]; then
    fcpu_untraced+=("$(cpu_launch "$fortran" untraced)")
    fcpu_traced+=("$(cpu_launch "$fortran" traced)")
    # Every message of the Fortran loop is in the trace (5 x 200000 x 3).
    n=$("$cz" trace summary "$work/cpu" | sed -n 's/^ranks: [0-9]*, events: \([0-9]*\)$/\1/p')
    [ "$n" -ge 3000000 ] || { echo "the Fortran loop's trace holds $n events, expected 3000000+" >&2; exit 1; }
  fi
done
echo "${cpu_untraced[*]}" >"$out/cpu_untraced_ns_per_message.txt"
echo "${cpu_traced[*]}" >"$out/cpu_traced_ns_per_message.txt"
echo "${fcpu_untraced[*]}" >"$out/cpu_fortran_untraced_ns_per_message.txt"
echo "${fcpu_traced[*]}" >"$out/cpu_fortran_traced_ns_per_message.txt"
events=0 evt_bytes=0
if [ "$launches" -gt 0 ]; then
  events=$("$cz" trace summary "$work/trace" | sed -n 's/^ranks: [0-9]*, events: \([0-9]*\)$/\1/p')
  evt_bytes=$(cat "$work/trace"/traces/*.evt | wc -c)
fi
python3 - "$csv" "$out/summary.csv" "$events" "$evt_bytes" "${cpu_untraced[*]}" "${cpu_traced[*]}" \
  "${fcpu_untraced[*]}" "${fcpu_traced[*]}" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault((int(r["size"]), r["launch"]), {})[r["mode"]] = r
out = open(sys.argv[2], "w")
out.write("size,bench,untraced_us_median,traced_us_median,ratio_median,ratio_min,ratio_max,"
          "inrun_ratio_median,floor_ratio_median\n")
print(f"{'size':>8} {'bench':>9} {'untraced':>9} {'traced':>9}  traced/untraced median [min..max]"
      "  recording/paused (same run)  floor/untraced (same run)")
for size in sorted({s for s, _ in by}):
    for bench in ("pingpong", "ring"):
        col = bench + "_us"
        pairs = [(float(m["untraced"][col]), float(m["recording"][col]), float(m["paused"][col]))
                 for (s, _), m in by.items() if s == size and {"untraced", "recording", "paused"} <= m.keys()]
        ratio = [t / u for u, t, _ in pairs]
        inrun = [t / p for _, t, p in pairs]
        # The floor does its work where the tracer must for 257 B-16 KiB:
        # between a message's arrival and the reply. Up to 256 B the tracer
        # records after the send, and from 16 KiB it hashes while the
        # message travels, off that path: the floor bounds nothing there.
        floor = [float(m["floor"][col]) / float(m["untraced"][col])
                 for (s, _), m in by.items()
                 if s == size and 256 < s < 16384 and {"untraced", "floor"} <= m.keys()]
        med = statistics.median
        floor_med = f"{med(floor):.3f}" if floor else ""
        out.write(f"{size},{bench},{med(u for u, _, _ in pairs):.3f},{med(t for _, t, _ in pairs):.3f},"
                  f"{med(ratio):.3f},{min(ratio):.3f},{max(ratio):.3f},{med(inrun):.3f},{floor_med}\n")
        print(f"{size:>8} {bench:>9} {med(u for u, _, _ in pairs):>9.2f} {med(t for _, t, _ in pairs):>9.2f}"
              f"  {med(ratio):.3f} [{min(ratio):.3f}..{max(ratio):.3f}]  {med(inrun):.3f}"
              f"  {floor_med}")
events, evt = int(sys.argv[3]), int(sys.argv[4])
if events:
  print(f"OTF2 trace: {evt / events:.1f} bytes per event ({events} events, last traced launch); "
        f"while running: 88-byte records in a 5.5 MiB ring per rank plus the log")
# Each launch printed "thread:process" ns per message (3 events).
for lang, untraced, traced in (("C", 5, 6), ("Fortran", 7, 8)):
    if not sys.argv[untraced].split():
        continue
    for k, who in ((0, "on the calling thread"), (1, "in the whole process (writer thread included)")):
        u = [float(x.split(":")[k]) for x in sys.argv[untraced].split()]
        t = [float(x.split(":")[k]) for x in sys.argv[traced].split()]
        per_event = sorted((b - a) / 3 for a, b in zip(u, t))
        print(f"tracer CPU, {lang} calls, {who}: {statistics.median(per_event):.1f} ns per event "
              f"[{per_event[0]:.1f}..{per_event[-1]:.1f}] (8 B message to self: "
              f"{statistics.median(u):.1f} ns untraced, {statistics.median(t):.1f} ns traced, "
              f"3 events, medians of {len(u)} launch pairs)")
PY
