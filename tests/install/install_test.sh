#!/usr/bin/env bash
# Installs the build into a fresh prefix and uses it the way a user would:
# the CLI, find_package(Collectivize) from CMake, pkg-config with mpicc, and
# a relocated copy of the prefix. Runs the bundled example with real mpirun.
#   install_test.sh BUILD_DIR SOURCE_DIR MPIEXEC
set -euo pipefail
build=$1 src=$2 mpiexec=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/cz-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Sanitized builds (scripts/run test-asan): MPI ranks are not leak-checked
# (Open MPI keeps memory until exit), as in every MPI test; nor, here, the
# commands that launch ranks themselves (bench, run), whose own leaks the
# lit tests check.
rank_env=()
[ -z "${ASAN_OPTIONS:-}" ] || rank_env=(env "ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0")
mpirun=("${rank_env[@]}" "$mpiexec" --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1)

step() { printf '== %s\n' "$*"; }

step "cmake --install"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/collectivize include/collectivize.h lib/libcollectivize.so \
         lib/libcollectivize_trace.so lib/pkgconfig/collectivize-trace.pc \
         include/collectivize_trace_format.h \
         lib/pkgconfig/collectivize.pc lib/cmake/Collectivize/CollectivizeConfig.cmake \
         share/collectivize/decision-table.txt; do
  [ -e "$work/prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done

step "libcollectivize exports its cz_* API only (internal czi_* symbols hidden)"
exported=$(nm -D --defined-only "$work/prefix/lib/libcollectivize.so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}')
echo "$exported" | grep -q '^cz_alltoall$' || { echo "libcollectivize does not export cz_alltoall"; exit 1; }
others=$(echo "$exported" | grep -v '^cz_' || true)
[ -z "$others" ] || { echo "libcollectivize exports symbols outside its API:"; echo "$others" | head; exit 1; }

step "installed CLI"
"$work/prefix/bin/collectivize" --version | grep -E '^collectivize [0-9]+\.[0-9]+\.[0-9]+$'
"$work/prefix/bin/collectivize" --help | grep -q 'usage: collectivize'
"$work/prefix/bin/collectivize" table check "$work/prefix/share/collectivize/decision-table.txt"

step "find_package(Collectivize): examples/transpose"
cmake -S "$src/examples/transpose" -B "$work/cmake-build" -DCMAKE_C_COMPILER=mpicc \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"${mpirun[@]}" -n 4 "$work/cmake-build/transpose" 64 | grep 'results agree'

step "pkg-config + mpicc, from a relocated prefix"
mv "$work/prefix" "$work/moved"
export PKG_CONFIG_PATH="$work/moved/lib/pkgconfig"
# shellcheck disable=SC2046
mpicc "$src/examples/transpose/transpose.c" $(pkg-config --cflags --libs collectivize) \
  -o "$work/transpose-pc"
"${mpirun[@]}" -n 3 "$work/transpose-pc" 48 | grep 'results agree'
step "installed bench finds its worker from the relocated prefix"
"${rank_env[@]}" "$work/moved/bin/collectivize" bench --collective bcast --procs 2 --sizes 8:64 --quick \
  -o "$work/bench" >/dev/null 2>&1
grep -q '^bcast,2,64,binomial,.*,ok,' "$work/bench/bench.csv"
step "tracing from the relocated prefix: linked via pkg-config, and collectivize run"
# shellcheck disable=SC2046
mpicc "$src/examples/transpose/transpose.c" $(pkg-config --cflags --libs collectivize-trace) \
  -o "$work/transpose-traced"
COLLECTIVIZE_TRACE_DIR="$work/trace-linked" COLLECTIVIZE_QUIET=1 \
  "${mpirun[@]}" -n 2 "$work/transpose-traced" 16 | grep 'results agree'
"$work/moved/bin/collectivize" trace summary "$work/trace-linked" | grep 'incomplete ranks: none'
"${rank_env[@]}" "$work/moved/bin/collectivize" run -np 2 --trace-dir "$work/trace-run" -- \
  "$work/transpose-pc" 16 | grep 'results agree'
"$work/moved/bin/collectivize" trace dump "$work/trace-run" > "$work/dump.txt"
# The hand-made alltoall posts P Isends per repetition (9 of them); cz_alltoall
# talks through PMPI, so it must add no point-to-point records at all.
isends=$(grep -cE '^rank 0 .* isend .* crc32=0x' "$work/dump.txt" || true)
[ "$isends" = 18 ] || { echo "rank 0: expected 18 traced Isends, found $isends"; exit 1; }
if [ -e "$work/moved/bin/collectivize-cc" ]; then
  step "instrumenting wrapper from the relocated prefix: build, trace, sites in the database"
  for f in bin/collectivize-c++ bin/collectivize-clang lib/collectivize-plugin.so; do
    [ -e "$work/moved/$f" ] || { echo "missing after install: $f"; exit 1; }
  done
  # collectivize runs the Clang verbs from collectivize-clang beside it.
  "$work/moved/bin/collectivize" instrument --help | grep -q 'usage: collectivize instrument'
  "$work/moved/bin/collectivize" rewrite --help | grep -q 'usage: collectivize rewrite'
  ! ldd "$work/moved/bin/collectivize" | grep -q libLLVM ||
    { echo "collectivize links LLVM (only collectivize-clang should)"; exit 1; }
  cp -r "$src/examples/instrument-make" "$work/wrap"
  COLLECTIVIZE_SITES="$work/wrap/sites.json" make -s -C "$work/wrap" \
    CC="$work/moved/bin/collectivize-cc" >/dev/null
  # The tracer comes from the moved prefix (rpath), not the build tree.
  readelf -d "$work/wrap/ring_bcast" | grep -q "moved/bin/../lib" ||
    { echo "wrapper did not link the relocated tracer"; readelf -d "$work/wrap/ring_bcast"; exit 1; }
  COLLECTIVIZE_TRACE_DIR="$work/wrap-trace" COLLECTIVIZE_QUIET=1 \
    "${mpirun[@]}" -n 2 "$work/wrap/ring_bcast" | grep -q 'ring sum 1'
  "$work/moved/bin/collectivize" trace dump "$work/wrap-trace" > "$work/wrap-dump.txt"
  python3 "$src/tests/lit/instrument/Inputs/check_trace_sites.py" "$work/wrap-dump.txt" \
    "$work/wrap/sites.json" | tail -1
fi
step "ok"
