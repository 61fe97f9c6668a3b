// One request array and one MPI_Waitall serve two patterns: the broadcast's
// sends and another exchange's receive. Dropping the wait would leave the
// other's request unfinished, keeping it would wait on requests the patch
// no longer starts: no patch, the file untouched.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=8 lines=19-21' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-bcast: none
// CHECK-NEXT: no patch: the requests in 'reqs' are started by this collective's sites and by MPI_Irecv at line 23, which is not part of it: their completion is shared, and the patch can neither drop it nor keep it
#include <mpi.h>

void step(int *table, int *halo, int me, int p) {
  MPI_Request reqs[64];
  int n = 0;
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Isend(table, 8, MPI_INT, q, 1, MPI_COMM_WORLD, &reqs[n++]);
  } else {
    MPI_Irecv(table, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, &reqs[n++]);
  }
  MPI_Irecv(halo, 1, MPI_INT, (me + 1) % p, 2, MPI_COMM_WORLD, &reqs[n++]);
  MPI_Send(halo + 1, 1, MPI_INT, (me + p - 1) % p, 2, MPI_COMM_WORLD);
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}
