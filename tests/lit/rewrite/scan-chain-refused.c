// Prefix chains the rewriter does not propose: the program reads the
// receive buffer (rank r-1's prefix) after the chain, which MPI_Scan
// leaves as it was (review, naming it and the line); the chain combines
// with a comparison no MPI operation is read from, and the trace left the
// operation open (no patch); doubles summed in the chain's order, which
// MPI_Scan may round differently (review); an exclusive chain that sets
// rank 0's result, which MPI_Exscan leaves undefined (review); the receive
// buffer's address kept in a pointer read afterwards (no patch); an exscan
// from the caller's memory, read on the last rank too (review); a buffer
// holding the prefix at some process counts only (a leftover, review).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scan count=1 op=MPI_SUM lines=38-40' 'scan count=1 status=ambiguous unproven=["reduction_op"] lines=50-53' 'scan count=1 datatype=MPI_DOUBLE bytes_per_instance=8 lines=64-67' 'exscan count=1 op=MPI_SUM lines=76-82' 'scan count=2 op=MPI_SUM lines=92-94' 'exscan count=2 op=MPI_SUM lines=104-110' 'scan count=1 op=MPI_SUM lines=120-123' > %t/report.json
// RUN: %collectivize rewrite %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: 01-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain leaves 'got' as its messages and steps set it, and the program reads it at line 41; the call leaves it as it was
// SUMMARY: 02-scan: none
// SUMMARY-NEXT: no patch: an ambiguous match (the trace does not prove: reduction_op; the detection report's note says what would settle it): the chain combines with `got > best ? got : best` (line 51), which is no MPI reduction operation the rewriter reads
// SUMMARY: 03-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain combines in its own order; MPI_Scan's order may round the floating-point result differently
// SUMMARY: 04-exscan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Exscan(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain sets rank 0's 'sum' to a value the rewriter does not keep, and the program reads it afterwards; MPI_Exscan leaves rank 0's result undefined
// SUMMARY: 05-scan: none
// SUMMARY-NEXT: no patch: the messages deliver values the reduction does not combine: MPI_Recv at line 92 receives into 'got', read at line 89, while the collective call leaves its result in its accumulator only
// SUMMARY: 06-exscan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Exscan(mine, (me == 0 ? below : sum), 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY: MPI_Exscan reads 'mine' on the last rank too, where the chain never reads it, and it is memory the function does not own
// SUMMARY: 07-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain leaves 'tmp' as its messages and steps set it, and the program reads it at line 124
// SUMMARY: 0 proposed, 5 to review, 2 without a patch
#include <mpi.h>

// The program reads got, rank r-1's prefix, after the chain: MPI_Scan
// would leave it as it was.
int reads_got(int mine) {
  int me, p, got = 0, sum;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) MPI_Recv(&got, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  sum = (me > 0 ? got : 0) + mine;
  if (me + 1 < p) MPI_Send(&sum, 1, MPI_INT, me + 1, 0, MPI_COMM_WORLD);
  return sum * 100 + got;
}

// A maximum by comparison: no MPI operation the chain's evaluation reads.
int larger(int mine) {
  int me, p, got, best = mine;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) {
    MPI_Recv(&got, 1, MPI_INT, me - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    best = got > best ? got : best;
  }
  if (me + 1 < p) MPI_Send(&best, 1, MPI_INT, me + 1, 1, MPI_COMM_WORLD);
  return best;
}

// Doubles summed in the chain's order.
double float_sum(double mine) {
  int me, p;
  double got, sum = mine;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) {
    MPI_Recv(&got, 1, MPI_DOUBLE, me - 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += got;
  }
  if (me + 1 < p) MPI_Send(&sum, 1, MPI_DOUBLE, me + 1, 2, MPI_COMM_WORLD);
  return sum;
}

// Exclusive, but rank 0 sets its result, which MPI_Exscan leaves undefined.
int rank0_set(int mine) {
  int me, p, below, sum, pass;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me + 1 < p) MPI_Send(&mine, 1, MPI_INT, me + 1, 3, MPI_COMM_WORLD);
  if (me > 0) MPI_Recv(&below, 1, MPI_INT, me - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 1) MPI_Recv(&sum, 1, MPI_INT, me - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me == 0) sum = -1;
  else sum = (me > 1 ? sum : 0) + below;
  pass = sum;
  if (me > 0 && me + 1 < p) MPI_Send(&pass, 1, MPI_INT, me + 1, 4, MPI_COMM_WORLD);
  return sum;
}

// The receive buffer's address is kept in a pointer read afterwards.
int kept_address(const int mine[2]) {
  int me, p, got[2], sum[2];
  int *view = got;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) MPI_Recv(got, 2, MPI_INT, me - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < 2; i++) sum[i] = (me > 0 ? got[i] : 0) + mine[i];
  if (me + 1 < p) MPI_Send(sum, 2, MPI_INT, me + 1, 5, MPI_COMM_WORLD);
  return sum[0] + view[0];
}

// Exclusive, the own values in the caller's memory: MPI_Exscan reads them
// on the last rank too, where the chain does not.
void callers_values(const int *mine, int sum[2]) {
  int me, p, below[2], pass[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me + 1 < p) MPI_Send(mine, 2, MPI_INT, me + 1, 6, MPI_COMM_WORLD);
  if (me > 0) MPI_Recv(below, 2, MPI_INT, me - 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 1) MPI_Recv(pass, 2, MPI_INT, me - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 0) {
    for (int i = 0; i < 2; i++) sum[i] = (me > 1 ? pass[i] : 0) + below[i];
    for (int i = 0; i < 2; i++) pass[i] = sum[i];
    if (me + 1 < p) MPI_Send(pass, 2, MPI_INT, me + 1, 7, MPI_COMM_WORLD);
  }
}

// tmp holds the prefix only from P = 3 on; at P = 2 it keeps -1, which
// the program returns: sum is the result, tmp a leftover read afterwards.
int from_three(int mine) {
  int me, p, got, sum = mine, tmp = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) MPI_Recv(&got, 1, MPI_INT, me - 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 0) sum += got;
  if (p > 2) tmp = sum;
  if (me + 1 < p) MPI_Send(&sum, 1, MPI_INT, me + 1, 8, MPI_COMM_WORLD);
  return tmp;
}
