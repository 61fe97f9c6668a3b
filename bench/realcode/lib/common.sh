# Shared steps of the real-code suite: build with the compiler wrappers of an
# install PREFIX, then per case trace -> detect -> rewrite.  Sourced by
# run-one.sh; a program recipe (programs/<name>.sh) defines build_program and
# run_cases and calls cz_case for every traced run.

set -u
REALCODE=${REALCODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
# The programs' sources (fetch-sources.sh), outside the checkout: no
# third-party code in the repository.
REALCODE_SRC=${REALCODE_SRC:-${XDG_CACHE_HOME:-$HOME/.cache}/collectivize-realcode}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1

log() { printf '[%s %s] %s\n' "$(date +%H:%M:%S)" "${PROGRAM:-suite}" "$*" >&2; }

# Identity of an install: its path plus size and mtime of every file under
# bin/ lib/ libexec/.  A build is reused only for the same identity.
prefix_fingerprint() {
  { echo "$1"; find "$1/bin" "$1/lib" "$1/libexec" -type f -printf '%P %s %T@\n' 2>/dev/null | sort; } |
    sha256sum | cut -c1-16
}

# cz_setup PREFIX OUT PROGRAM: global variables every step uses.
cz_setup() {
  PREFIX=$(cd "$1" && pwd); OUT_ROOT=$(mkdir -p "$2" && cd "$2" && pwd); PROGRAM=$3
  P_OUT=$OUT_ROOT/$PROGRAM
  BUILD=$P_OUT/build
  SITES=$P_OUT/sites.json
  CZ=$PREFIX/bin/collectivize
  CZ_CC=$PREFIX/bin/collectivize-cc
  CZ_CXX=$PREFIX/bin/collectivize-c++
  CZ_FC=$PREFIX/bin/collectivize-fc
  FINGERPRINT=$(prefix_fingerprint "$PREFIX")
  REWRITE_ARGS=()
  # A recipe's rewrite_args sets the rewriter's extra arguments (they may
  # name $BUILD, known only now).
  if declare -F rewrite_args > /dev/null; then rewrite_args; fi
  mkdir -p "$P_OUT"
}

# cz_build SRCNAME: fresh copy of $REALCODE_SRC/SRCNAME in $BUILD and build_program in
# it, unless a build for this install identity already succeeded there.
cz_build() {
  local src=$REALCODE_SRC/$1 stamp=$P_OUT/build.stamp
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$FINGERPRINT" ]; then
    log "build reused ($BUILD)"; return 0
  fi
  if [ ! -d "$src" ]; then
    log "no sources at $src: run bench/realcode/fetch-sources.sh $1 first (or set REALCODE_SRC)"
    return 1
  fi
  log "building from $src"
  rm -rf "$BUILD" "$SITES" "$stamp"; mkdir -p "$BUILD"
  cp -a "$src/." "$BUILD/"
  local t0=$SECONDS rc=0
  ( cd "$BUILD" && export COLLECTIVIZE_SITES=$SITES COLLECTIVIZE_ROOT=$BUILD && build_program ) \
      > "$P_OUT/build.log" 2>&1 || rc=$?
  # Anything the wrappers said about themselves (instrumenting problems).
  grep -i 'collectivize' "$P_OUT/build.log" | grep -v "^$CZ_CC \|^$CZ_CXX \|^$CZ_FC \|bin/collectivize-[cf]" \
      > "$P_OUT/build-wrapper-messages.txt" || true
  if [ $rc -ne 0 ]; then log "BUILD FAILED (rc $rc), see $P_OUT/build.log"; return 1; fi
  echo "$FINGERPRINT" > "$stamp"
  log "built in $((SECONDS - t0)) s; $(python3 -c "import json,sys;print(len(json.load(open(sys.argv[1]))['sites']))" "$SITES" 2>/dev/null || echo '?') sites"
}

# cz_case CASE NP REP [ENV=VAL...] -- CMD ARGS: trace in the current
# directory, detect, rewrite.  Writes $P_OUT/CASE/{trace,report,patches}-npNP[-rREP].
cz_case() {
  local case=$1 np=$2 rep=$3; shift 3
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local dir=$P_OUT/$case tag=np$np
  [ "$rep" -gt 1 ] && tag=$tag-r$rep
  mkdir -p "$dir"
  rm -rf "$dir/trace-$tag" "$dir/patches-$tag" "$dir/report-$tag.json" "$dir/report-$tag.txt" "$dir/patches-$tag.txt"
  local t0=$SECONDS rc=0
  env "${envs[@]}" timeout "$RUN_TIMEOUT" "$CZ" run -np "$np" --trace-dir "$dir/trace-$tag" -- "$@" \
      > "$dir/run-$tag.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    log "$case $tag: RUN FAILED (rc $rc$([ $rc = 124 ] && echo ', timeout')), see $dir/run-$tag.log"
    echo "run failed: rc $rc" > "$dir/report-$tag.txt"
    [ -d "$dir/trace-$tag" ] || return 0
  fi
  cz_detect_rewrite "$dir" "$tag" || { log "$case $tag: DETECT FAILED"; return 0; }
  log "$case $tag: $(head -2 "$dir/report-$tag.txt" | tail -1); $(tail -1 "$dir/patches-$tag.txt") ($((SECONDS - t0)) s)"
}

# cz_detect_rewrite DIR TAG: detect DIR/trace-TAG with the site database and
# rewrite the report; DIR/{report,patches}-TAG*.  Non-zero when detect failed.
# Shared by cz_case and redetect.sh (detection only, on stored traces).
cz_detect_rewrite() {
  local dir=$1 tag=$2
  # Removed, not overwritten: in a redetect.sh copy they are hard links to
  # the earlier run's files, which writing in place would change too.
  rm -rf "$dir/patches-$tag" "$dir/report-$tag.json" "$dir/report-$tag.txt" "$dir/patches-$tag.txt" \
         "$dir/detect-$tag.err" "$dir/rewrite-$tag.log"
  # No site database when the wrappers instrumented nothing (every file
  # failed to parse): detect names sites by return address then.
  local sites_opt=(--sites "$SITES")
  [ -f "$SITES" ] || { sites_opt=(); log "$tag: no site database ($SITES), detecting without --sites"; }
  timeout "$RUN_TIMEOUT" "$CZ" detect "$dir/trace-$tag" "${sites_opt[@]}" -o "$dir/report-$tag.json" \
      > "$dir/report-$tag.txt" 2> "$dir/detect-$tag.err" || return 1
  timeout "$RUN_TIMEOUT" "$CZ" rewrite "$dir/report-$tag.json" -o "$dir/patches-$tag" -q "${REWRITE_ARGS[@]}" \
      > "$dir/rewrite-$tag.log" 2>&1 || log "$tag: rewrite exit $?"
  python3 "$REALCODE/lib/patch_summary.py" "$dir/patches-$tag" > "$dir/patches-$tag.txt" 2>&1 || true
}
