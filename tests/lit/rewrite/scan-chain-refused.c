// Prefix chains the rewriter does not propose: the program reads the
// receive buffer (rank r-1's prefix) after the chain, which MPI_Scan
// leaves as it was (review, naming it and the line); the chain combines
// with a comparison no MPI operation is read from, and the trace left the
// operation open (no patch); doubles summed in the chain's order, which
// MPI_Scan may round differently (review).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scan count=1 op=MPI_SUM lines=26-28' 'scan count=1 status=ambiguous unproven=["reduction_op"] lines=38-41' 'scan count=1 datatype=MPI_DOUBLE bytes_per_instance=8 lines=52-55' > %t/report.json
// RUN: %collectivize rewrite %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: 01-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain leaves 'got' as its messages and steps set it, and the program reads it at line 29; the call leaves it as it was
// SUMMARY: 02-scan: none
// SUMMARY-NEXT: no patch: an ambiguous match (the trace does not prove: reduction_op; the detection report's note says what would settle it): the chain combines with `got > best ? got : best` (line 39), which is no MPI reduction operation the rewriter reads
// SUMMARY: 03-scan: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the chain combines in its own order; MPI_Scan's order may round the floating-point result differently
// SUMMARY: 0 proposed, 2 to review, 1 without a patch
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
