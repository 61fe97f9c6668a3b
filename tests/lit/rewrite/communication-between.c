// Another exchange sits between the broadcast's sends and their wait: the
// patch would move it after the collective call and change the order of
// messages, so there is no patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=8 lines=18-20' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-bcast: none
// CHECK-NEXT: no patch: MPI_Sendrecv at line 22 is communication that is not part of this collective, between its messages: the patch would move it after the collective call
#include <mpi.h>

void step(int *table, int *halo, int me, int p) {
  MPI_Request reqs[64];
  int n = 0;
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Isend(table, 8, MPI_INT, q, 1, MPI_COMM_WORLD, &reqs[n++]);
  } else {
    MPI_Recv(table, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Sendrecv(halo, 1, MPI_INT, (me + 1) % p, 2, halo + 1, 1, MPI_INT, (me + p - 1) % p, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}
