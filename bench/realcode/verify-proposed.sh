#!/usr/bin/env bash
# bench/realcode/verify-proposed.sh CZ OUT: every patch the suite proposed
# (OUT from run-all.sh), verified with `collectivize verify` (CZ: the
# collectivize binary) at two process counts and, where the program takes
# a size, two sizes, with the effect check. Writes OUT/VERIFY.md (one line
# per patch: verdict, effect, runs) and keeps each verify.json beside its
# patch. The cases below are the ones the suite proposes patches for; a
# proposed patch with no line here is listed as "not verified". A case
# named CASE@TAG verifies the patches of that run (patches-TAG; default
# np4, for programs that run at other counts).
set -uo pipefail
cz=${1:?usage: verify-proposed.sh CZ OUT} out=${2:?usage: verify-proposed.sh CZ OUT}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
T=tutorials/mpi-broadcast-and-collective-communication/code
A=Laboratoare/lab09
I=$(cd "$(dirname "$0")" && pwd)/recipes/ipp # the IPP programs' stdin
IC='mpicc -g -O2 -std=gnu99'
# program|case|build command|first run command|more run commands (;-separated)[|more verify
# options, space-separated, for a program whose output has timings of its own]
CASES="mpitutorial|my_bcast|make -C $T MPICC=mpicc my_bcast|mpirun -np 4 $T/my_bcast|mpirun -np 8 $T/my_bcast
mpitutorial|compare_bcast|make -C $T MPICC=mpicc compare_bcast|mpirun -np 4 $T/compare_bcast 1000 10|mpirun -np 8 $T/compare_bcast 1000 10;mpirun -np 4 $T/compare_bcast 100000 3
etudes|my-bcast|make MPICC=mpicc CFLAGS='-std=c99 -Wall -g -O2' mpi-my-bcast|mpirun -np 4 ./mpi-my-bcast|mpirun -np 8 ./mpi-my-bcast
apd|broadcast|mpicc -g -O2 -o $A/broadcast/broadcast $A/broadcast/broadcast.c|mpirun -np 4 $A/broadcast/broadcast|mpirun -np 8 $A/broadcast/broadcast
apd|reduce|mpicc -g -O2 -o $A/reduce/reduce $A/reduce/reduce.c|mpirun -np 4 $A/reduce/reduce|mpirun -np 8 $A/reduce/reduce
commops|barrier|mpicc -g -O2 -o mpi-barrier mpi-barrier.c -lm|mpirun -np 4 ./mpi-barrier|mpirun -np 8 ./mpi-barrier
prk|dgemm@np6|make -C MPI1/DGEMM clean dgemm MPICC=mpicc|mpirun -np 6 MPI1/DGEMM/dgemm 2 72 8 0|mpirun -np 9 MPI1/DGEMM/dgemm 2 72 8 0;mpirun -np 4 MPI1/DGEMM/dgemm 3 96 16 1
prk|dgemm@np9|make -C MPI1/DGEMM clean dgemm MPICC=mpicc|mpirun -np 9 MPI1/DGEMM/dgemm 2 72 8 0|mpirun -np 6 MPI1/DGEMM/dgemm 2 72 8 0;mpirun -np 8 MPI1/DGEMM/dgemm 3 96 16 1
ipp|bcast|$IC -o bcast bcast.c|mpirun -np 4 $I/with-input.sh $I/bcast.in ./bcast|mpirun -np 6 $I/with-input.sh $I/bcast.in ./bcast;mpirun -np 8 $I/with-input.sh $I/bcast.in ./bcast
ipp|bcast@np6|$IC -o bcast bcast.c|mpirun -np 6 $I/with-input.sh $I/bcast.in ./bcast|mpirun -np 5 $I/with-input.sh $I/bcast.in ./bcast
ipp|global_sum|$IC -o global_sum global_sum.c|mpirun -np 4 ./global_sum|mpirun -np 8 ./global_sum
ipp|global_sum2|$IC -o global_sum2 global_sum2.c|mpirun -np 4 ./global_sum2|mpirun -np 8 ./global_sum2;mpirun -np 6 ./global_sum2
ipp|global_sum_bf|$IC -o global_sum_bf global_sum_bf.c|mpirun -np 4 ./global_sum_bf|mpirun -np 8 ./global_sum_bf
ipp|trap|$IC -o mpi_trap mpi_trap.c -lm|mpirun -np 4 $I/with-input.sh $I/trap.in ./mpi_trap|mpirun -np 8 $I/with-input.sh $I/trap.in ./mpi_trap;mpirun -np 3 $I/with-input.sh $I/trap.in ./mpi_trap
ipp|trap_time|$IC -o mpi_trap_time mpi_trap_time.c -lm|mpirun -np 4 $I/with-input.sh $I/trap.in ./mpi_trap_time|mpirun -np 8 $I/with-input.sh $I/trap.in ./mpi_trap_time|--ignore [Ee]lapsed --ignore [Tt]ime
imb|p2p|make IMB-P2P CC=mpicc|mpirun -np 4 ./IMB-P2P PingPong Birandom Stencil2D -msglog 3:8 -iter 10|mpirun -np 8 ./IMB-P2P PingPong Birandom Stencil2D -msglog 3:8 -iter 10|--ignore ^[[:space:]]+[0-9]+[[:space:]]+[0-9] --ignore ^#.Date --ignore ^#.*IMB-P2P"
report=$out/VERIFY.md
{
  echo "# Proposed patches, verified ($(date -u +%Y-%m-%d), $("$cz" --version 2>/dev/null | head -1))"
  echo
  echo "| program | case | patch | verdict | effect | run commands |"
  echo "|---|---|---|---|---|---|"
} >"$report"
verified_dirs=()
while IFS='|' read -r program case build first more options; do
  tag=np4
  [[ $case == *@* ]] && tag=${case#*@} case=${case%@*}
  dir=$out/$program/$case/patches-$tag
  [ -f "$dir/patches.json" ] || { echo "| $program | $case | - | not run | | |" >>"$report"; continue; }
  runs=()
  IFS=';' read -ra extra <<<"$more"
  for r in "${extra[@]}"; do runs+=(--run "$r"); done
  read -ra cmd <<<"$first"
  read -ra opts <<<"${options:-}"
  log=$dir/verify.log
  (cd "$out/$program/build" && "$cz" verify "$dir" --build "$build" --runs 3 --ignore time \
     "${opts[@]}" "${runs[@]}" -- "${cmd[@]}") >"$log" 2>&1
  for v in "$dir"/*.verify.json; do
    [ -f "$v" ] || continue
    python3 - "$v" "$program" "$case" "$first; $more" >>"$report" <<'PY'
import json, os, sys
v = json.load(open(sys.argv[1]))
e = v.get("effect") or {}
eff = ("identical, %d calls on %d ranks" % (e.get("calls", 0), e.get("ranks", 0)) if e.get("checked") and not e.get("differs")
       else "differs" if e.get("differs") else "not checked: " + e.get("reason", "?"))
print("| %s | %s | %s | %s | %s | %s |" % (sys.argv[2], sys.argv[3], os.path.basename(sys.argv[1]).split(".")[0],
                                      v.get("verdict"), eff, sys.argv[4].replace("|", "\\|")))
PY
  done
  verified_dirs+=("$dir")
done <<<"$CASES"
# Proposed patches the table above does not cover.
python3 - "$out" "${verified_dirs[@]}" >>"$report" <<'PY'
import glob, json, os, sys
out, done = sys.argv[1], set(os.path.abspath(d) for d in sys.argv[2:])
for pj in sorted(glob.glob(os.path.join(out, "*", "*", "patches-np*", "patches.json"))):
    d = os.path.dirname(os.path.abspath(pj))
    for p in json.load(open(pj))["patches"]:
        if p["status"] == "proposed" and d not in done and not d.endswith(("-np8", "-r2")):
            print("| %s | %s | %s | not verified (no line in verify-proposed.sh) | | |" % (
                d.split(os.sep)[-3], d.split(os.sep)[-2], p["id"]))
PY
cat "$report"
