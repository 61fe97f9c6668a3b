#!/usr/bin/env bash
# bench/trace/instructions.sh BUILD TRACER_SO [N [BYTES]]: the tracer's own
# instructions on the message path, counted by callgrind (the load does not
# change them, so this holds on a shared machine):
#  - ring: the tracer's functions per MPI_Sendrecv of BYTES (default 8) of
#    cz_sendrecv_instructions N (2 ranks; each rank's loop, calling thread
#    only), per function and in total; the same for a ping-pong of
#    blocking MPI_Send and MPI_Recv of BYTES, per iteration;
#  - trace_cpu: cz_trace_cpu (MPI_Isend + MPI_Recv + MPI_Wait of 8 bytes to
#    itself, 5 rounds of N messages), traced minus untraced instructions of
#    the main thread before MPI_Finalize, per message, from runs of N and 2N
#    messages (what the two have in common, start-up, cancels out).
# TRACER_SO is copied and stripped of debug information (valgrind 3.19
# cannot read clang 14's). bench/README.md, "Tracer overhead", has the
# figures.
set -eu
build=$1 so=$2 n=${3:-10000} bytes=${4:-8}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1 COLLECTIVIZE_QUIET=1
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$so" "$out/tracer.so"
strip -g "$out/tracer.so"
grind="valgrind --tool=callgrind --separate-threads=yes"

# Ring: part 2 of each rank's main thread is run_ring (the loop).
COLLECTIVIZE_TRACE_DIR=$out/ring-trace mpirun -n 2 -x LD_PRELOAD="$out/tracer.so" \
  $grind --dump-before='run_*' --callgrind-out-file="$out/ring.%p" \
  "$build/bench/cz_sendrecv_instructions" "$n" ring "$bytes" </dev/null >/dev/null 2>&1
for f in "$out"/ring.*.2-01; do
  echo "## ring, $bytes B MPI_Sendrecv: tracer instructions per call, $(basename "$f")"
  python3 "$here/tracer_instructions.py" "$f" tracer.so "$n"
done

# Ping-pong: the same program's blocking MPI_Send + MPI_Recv per iteration.
COLLECTIVIZE_TRACE_DIR=$out/pp-trace mpirun -n 2 -x LD_PRELOAD="$out/tracer.so" \
  $grind --dump-before='run_*' --callgrind-out-file="$out/pp.%p" \
  "$build/bench/cz_sendrecv_instructions" "$n" pingpong "$bytes" </dev/null >/dev/null 2>&1
for f in "$out"/pp.*.2-01; do
  echo "## ping-pong, $bytes B MPI_Send + MPI_Recv: tracer instructions per iteration, $(basename "$f")"
  python3 "$here/tracer_instructions.py" "$f" tracer.so "$n"
done

# trace_cpu: the main thread's part before MPI_Finalize (part 1).
summary() { # TRACED(0/1) MESSAGES
  local dir=$out/cpu-$1-$2 pre=()
  mkdir -p "$dir"
  [ "$1" = 1 ] && pre=(env LD_PRELOAD="$out/tracer.so" COLLECTIVIZE_TRACE_DIR="$dir/t")
  "${pre[@]}" $grind --dump-before=MPI_Finalize --dump-before=PMPI_Finalize \
    --callgrind-out-file="$dir/cg" "$build/bench/cz_trace_cpu" "$2" </dev/null >/dev/null 2>&1
  grep -h '^summary:' "$dir/cg.1-01" | awk '{print $2}'
}
t1=$(summary 1 "$n") t2=$(summary 1 $((2 * n)))
u1=$(summary 0 "$n") u2=$(summary 0 $((2 * n)))
echo "## trace_cpu: traced $t1 / $t2, untraced $u1 / $u2 instructions (N=$n / $((2 * n)))"
python3 -c "
m = 5 * $n
t, u = ($t2 - $t1) / m, ($u2 - $u1) / m
print(f'tracer per message {t - u:.1f} (3 events: {(t - u) / 3:.1f} each); untraced message {u:.1f}')"
