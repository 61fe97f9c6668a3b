#!/usr/bin/env bash
# The instrumenting-time figure: `collectivize instrument` on a few thousand
# lines of MPI C, divided by `clang -fsyntax-only` on the same file with the
# same MPI include flags (goal <= 1.3x). Median of REPS runs each,
# interleaved, with min and max; all are whole processes. The instrument
# verb runs twice: with `-- mpicc` (it asks `mpicc --showme` itself, as for
# any mpicc compile database) and with the MPI flags given, like the
# baseline. Both write the copy and the site database.
#   bench/instrument/instrument_overhead.sh BUILD_DIR [LINES] [REPS]
# The machine may be shared: the ratio of medians is what to compare.
set -euo pipefail
build=${1:?usage: instrument_overhead.sh BUILD_DIR [LINES] [REPS]}
lines=${2:-3000}
reps=${3:-9}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cz="$build/cli/collectivize"
clang=${CLANG:-clang-14}
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-instr-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 "$here/gen_mpi_source.py" "$work/kernels.c" "$lines"
read -r -a mpiflags <<< "$(mpicc --showme:compile)"
now() { date +%s.%N; }
t_syntax=() t_instr=() t_flags=()
for ((i = 0; i < reps; i++)); do
  a=$(now); "$clang" -fsyntax-only "${mpiflags[@]}" "$work/kernels.c"; b=$(now)
  t_syntax+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')")
  rm -rf "$work/out"
  a=$(now); "$cz" instrument -q --root "$work" -o "$work/out" "$work/kernels.c" -- mpicc; b=$(now)
  t_instr+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')")
  rm -rf "$work/out2"
  a=$(now); "$cz" instrument -q --root "$work" -o "$work/out2" "$work/kernels.c" -- clang "${mpiflags[@]}"; b=$(now)
  t_flags+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')")
done
stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {
  m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2;
  printf "%.1f %.1f %.1f", m*1000, v[1]*1000, v[NR]*1000 }'; }
read -r sm smin smax <<< "$(stats "${t_syntax[@]}")"
read -r im imin imax <<< "$(stats "${t_instr[@]}")"
read -r fm fmin fmax <<< "$(stats "${t_flags[@]}")"
sites=$(grep -c '"id"' "$work/out/collectivize-sites.json")
echo "input: $(wc -l < "$work/kernels.c") lines of MPI C, $sites sites; $reps runs each"
printf 'clang -fsyntax-only:      median %7.1f ms (min %.1f, max %.1f)\n' "$sm" "$smin" "$smax"
printf 'instrument -- mpicc:      median %7.1f ms (min %.1f, max %.1f)\n' "$im" "$imin" "$imax"
printf 'instrument -- MPI flags:  median %7.1f ms (min %.1f, max %.1f)\n' "$fm" "$fmin" "$fmax"
awk -v i="$im" -v f="$fm" -v s="$sm" -v a="$imin" -v c="$fmin" -v b="$smin" 'BEGIN {
  printf "ratio -- mpicc:     %.2fx (medians), %.2fx (minima)   goal <= 1.3x\n", i/s, a/b
  printf "ratio -- MPI flags: %.2fx (medians), %.2fx (minima)\n", f/s, c/b }'
