// Prefix reductions are never proposed: the hand-made code may keep each
// rank's result where no message shows. A scan by recursive doubling that
// sends its partial sum from `part` and adds what it receives into it
// (`part += in`) gets a patch to review, MPI_Scan in place on `part`; an
// exscan gets none, with the call to write by hand; an ambiguous scan none.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scan count=1 datatype=MPI_INT op=MPI_SUM lines=20-30' 'exscan count=1 datatype=MPI_INT op=MPI_SUM lines=32-44' 'scan count=1 datatype=MPI_INT status=ambiguous unproven=["reduction_op"] lines=20-30' > %t/report.json
// RUN: %collectivize rewrite %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=JSON < %t/p/patches.json
// SUMMARY: 01-scan: review prog.c:{{.*}} -> MPI_Scan(MPI_IN_PLACE, &part, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: a prefix reduction: check that &part holds the rank's own value where the region starts and its partial result where it ends
// SUMMARY: 02-exscan: none
// SUMMARY-NEXT: no patch: an exclusive prefix reduction (MPI_Exscan): {{.*}} replace it by hand with MPI_Exscan(sendbuf, recvbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
// SUMMARY: 03-scan: none
// SUMMARY-NEXT: no patch: an ambiguous match (the trace does not prove: reduction_op;
// JSON-NOT: "status": "proposed"
#include <mpi.h>

int prefix_sum(int part, int me, int p) {
  int in;
  for (int d = 1; d < p; d <<= 1) {
    int to = me + d < p ? me + d : MPI_PROC_NULL, from = me - d >= 0 ? me - d : MPI_PROC_NULL;
    MPI_Sendrecv(&part, 1, MPI_INT, to, 4, &in, 1, MPI_INT, from, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (from != MPI_PROC_NULL) part += in;
  }
  return part;
}

int below_sum(int mine, int me, int p) {
  int below = 0, sum = 0, pass;
  if (me + 1 < p) MPI_Send(&mine, 1, MPI_INT, me + 1, 1, MPI_COMM_WORLD);
  if (me > 0) MPI_Recv(&below, 1, MPI_INT, me - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 1) MPI_Recv(&sum, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  sum += below;
  pass = sum;
  if (me > 0 && me + 1 < p) MPI_Send(&pass, 1, MPI_INT, me + 1, 0, MPI_COMM_WORLD);
  return sum;
}
