// Prefix chains the rewriter does not propose: the program reads the
// receive buffer (rank r-1's prefix) after the chain, which MPI_Scan
// leaves as it was (review, naming it and the line); the chain combines
// with a comparison no MPI operation is read from, and the trace left the
// operation open (no patch); doubles summed in the chain's order, which
// MPI_Scan may round differently (review); an exclusive chain that sets
// rank 0's result, which MPI_Exscan leaves undefined (review); the receive
// buffer's address kept in a pointer read afterwards (no patch).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scan count=1 op=MPI_SUM lines=32-34' 'scan count=1 status=ambiguous unproven=["reduction_op"] lines=44-47' 'scan count=1 datatype=MPI_DOUBLE bytes_per_instance=8 lines=58-61' 'exscan count=1 op=MPI_SUM lines=70-76' 'scan count=2 op=MPI_SUM lines=86-88' > %t/report.json
// RUN: %collectivize rewrite %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: 01-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain leaves 'got' as its messages and steps set it, and the program reads it at line 35; the call leaves it as it was
// SUMMARY: 02-scan: none
// SUMMARY-NEXT: no patch: an ambiguous match (the trace does not prove: reduction_op; the detection report's note says what would settle it): the chain combines with `got > best ? got : best` (line 45), which is no MPI reduction operation the rewriter reads
// SUMMARY: 03-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain combines in its own order; MPI_Scan's order may round the floating-point result differently
// SUMMARY: 04-exscan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Exscan(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain sets rank 0's 'sum' to a value the rewriter does not keep, and the program reads it afterwards; MPI_Exscan leaves rank 0's result undefined
// SUMMARY: 05-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(MPI_IN_PLACE, sum, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY: not proven a chain: the address of 'got' is kept in 'view' (line 83): reads and writes through it are not followed
// SUMMARY: 0 proposed, 4 to review, 1 without a patch
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
