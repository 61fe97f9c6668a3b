// An allgatherv whose receives read counts[q] and displs[q], but the
// loop itself fills those arrays as it goes: their elements at the patch
// point are not those the receives used, so no patch; the suggestion
// names the arrays to supply.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_INT counts=[2,3,4,5] bytes_per_instance=56' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-allgatherv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Allgatherv: the array `counts` (line {{[0-9]+}}) is written inside the region: its elements at the patch point are not those the receives used; the rationale suggests MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, all, <recvcounts>, <displs>, MPI_INT, comm), its arrays to supply by hand
#include <mpi.h>

void exchange(int *all, int *counts, int *displs, int me, int p, MPI_Comm comm) {
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++) {
    counts[q] = q + 2;
    displs[q] = q * (q + 3) / 2;
    if (q != me) MPI_Irecv(all + displs[q], counts[q], MPI_INT, q, 4, comm, &req[n++]);
  }
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(all + displs[me], counts[me], MPI_INT, q, 4, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
