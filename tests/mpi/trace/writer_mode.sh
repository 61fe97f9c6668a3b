#!/usr/bin/env bash
# writer_mode.sh MPIEXEC PROGRAM TRACER_SO: where the tracer writes its log
# (runtime/trace/event_log.c, start_writer). One rank bound to one CPU: at
# its wait points when it busy-polls, from a thread when its MPI yields the
# CPU while it waits (Open MPI's mpi_yield_when_idle; MPICH's ranks
# busy-poll); one rank free to use every CPU of a machine with more than
# one: from a thread; COLLECTIVIZE_TRACE_WRITER=thread or inline forces
# either. Read from the line COLLECTIVIZE_LOG=1 prints.
# Environment: CZ_MPIRUN_FLAGS, CZ_MPI_FAMILY (OpenMPI or MPICH).
set -u
mpiexec=$1 program=$2 so=$3
read -r -a given <<< "${CZ_MPIRUN_FLAGS:-}"
# The launcher's flags without their mpi_yield_when_idle: each check sets it.
flags=()
for ((i = 0; i < ${#given[@]}; i++)); do
  if [ "${given[i]}" = --mca ] && [ "${given[i + 1]:-}" = mpi_yield_when_idle ]; then
    i=$((i + 2))
    continue
  fi
  flags+=("${given[i]}")
done
# launch_args DIR SETTING BINDING YIELD: the launcher's options for one
# traced rank (YIELD: Open MPI's mpi_yield_when_idle; MPICH has none).
if [ "${CZ_MPI_FAMILY:-OpenMPI}" = MPICH ]; then
  launch_args() {
    echo -bind-to "$3" -genv LD_PRELOAD "$so" -genv COLLECTIVIZE_LOG 1 \
      -genv COLLECTIVIZE_TRACE_DIR "$1" -genv COLLECTIVIZE_TRACE_WRITER "$2"
  }
else
  launch_args() {
    echo --mca mpi_yield_when_idle "$4" --bind-to "$3" -x LD_PRELOAD="$so" \
      -x COLLECTIVIZE_LOG=1 -x COLLECTIVIZE_TRACE_DIR="$1" -x COLLECTIVIZE_TRACE_WRITER="$2"
  }
fi
if [ "$(nproc --all)" -lt 2 ]; then
  echo "FAIL: this check needs a machine with 2 CPUs or more (nproc --all: $(nproc --all))"
  exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failed=0
# expect NAME BINDING SETTING YIELD WORDS...: the log line must hold WORDS.
expect() {
  local name=$1 binding=$2 setting=$3 yield=$4; shift 4
  local want="$*" out line
  out=$("$mpiexec" "${flags[@]}" $(launch_args "$work/$name" "$setting" "$binding" "$yield") \
          -n 1 "$program" 2>&1)
  line=$(grep "writes its log" <<< "$out")
  if [[ "$line" != *"$want"* ]]; then
    echo "FAIL $name: expected '$want'; the run said: ${line:-nothing}"
    echo "$out" | tail -5
    failed=1
  else
    echo "ok   $name: $line"
  fi
}
expect bound_auto core auto 0 "at its wait points (this rank is bound to one CPU)"
if [ "${CZ_MPI_FAMILY:-OpenMPI}" != MPICH ]; then
  expect bound_auto_yielding core auto 1 \
    "from a thread (this rank is bound to one CPU, but it yields its CPU while it waits)"
  expect bound_inline_yielding core inline 1 \
    "at its wait points (COLLECTIVIZE_TRACE_WRITER=inline)"
fi
expect free_auto none auto 0 "from a thread"
expect bound_thread core thread 0 "from a thread"
expect free_inline none inline 0 "at its wait points (COLLECTIVIZE_TRACE_WRITER=inline)"
exit $failed
