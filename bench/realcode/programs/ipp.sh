# A course's copy of the MPI programs of Pacheco's "An Introduction to
# Parallel Programming" and their variants (cshaver88/ProfessorProvided-
# helperCode, a flat folder of single-file programs), each compiled alone
# with collectivize-cc -g -O2 -std=gnu99.  The programs whose communication
# is hand-made:
#   bcast.c          a hypercube broadcast of one int read on rank 0
#   global_sum.c     a tree sum to rank 0 (any P)
#   global_sum2.c    the same tree with a done flag
#   global_sum_bf.c  a butterfly sum valid on every rank (P a power of two)
#   global_sum_rp.c  a ring pass sum valid on every rank
#   mpi_trap.c       rank 0 sends a, b and n to each rank in one loop, then
#                    adds the ranks' areas one by one
#   mpi_trap_time.c  the same, and the slowest rank's time gathered by hand
#   parallel_odd_even.c  odd-even transposition sort: neighbour exchanges
#                    (negative); its lists printed through MPI_Gather
# Left out: bcast_driver.c (bcast.c again), global_sum_driver.c (its sum is
# not written), mpi_primes_sort.c, prime.c and mpi_primes_sort2.c (they
# crash untraced too, at P = 4 and 8), life.c (every rank receives from
# itself: it hangs), and the programs that only call collectives.  Cases at
# P = 4 and 8; bcast and global_sum_rp also at P = 6 (a tree and a ring on
# a count that is not a power of two; global_sum.c's tree names rank 6 at
# P = 6 and fails there, untraced too).
SRC_NAME=ProfessorProvided-helperCode
IPP_PROGRAMS="bcast global_sum global_sum2 global_sum_bf global_sum_rp mpi_trap mpi_trap_time parallel_odd_even"

build_program() {
  local p
  for p in $IPP_PROGRAMS; do
    "$CZ_CC" -g -O2 -std=gnu99 -o "$p" "$p.c" -lm || return 1
  done
}

rewrite_args() {
  REWRITE_ARGS=(-- -std=gnu99)
}

# ipp_case CASE NP PROGRAM [ARGS...]: one traced run in the case's folder,
# with the case's stdin from $IPP_INPUT when it is set.
ipp_case() {
  local name=$1 np=$2 prog=$3; shift 3
  mkdir -p "$P_OUT/$name/work"
  (cd "$P_OUT/$name/work" && printf '%s\n' "${IPP_INPUT:-}" > stdin.txt &&
    cz_case "$name" "$np" 1 -- sh -c 'exec "$0" "$@" < stdin.txt' "$BUILD/$prog" "$@")
}

run_cases() {
  local np
  for np in 4 6 8; do
    IPP_INPUT=1234 ipp_case bcast $np bcast
    ipp_case global_sum_rp $np global_sum_rp
  done
  for np in 4 8; do
    ipp_case global_sum $np global_sum
    ipp_case global_sum2 $np global_sum2
    ipp_case global_sum_bf $np global_sum_bf
    IPP_INPUT="0.5 3.25 4096" ipp_case trap $np mpi_trap
    IPP_INPUT="0.5 3.25 4096" ipp_case trap_time $np mpi_trap_time
    ipp_case odd_even $np parallel_odd_even g 800
  done
}
