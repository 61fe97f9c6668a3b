// An allgatherv whose receives read counts[q] and displs[q] from an
// array of long: MPI_Allgatherv takes int arrays, so no patch (a converted
// copy is the program's to make); the suggestion names the arrays.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_DOUBLE counts=[2,3,4,2] bytes_per_instance=88' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-allgatherv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Allgatherv: the array `counts` (line {{[0-9]+}}) holds long elements, not int: MPI takes counts and displacements as int arrays; the rationale suggests MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, all, <recvcounts>, <displs>, MPI_DOUBLE, comm), its arrays to supply by hand
#include <mpi.h>

void exchange(double *all, const long *counts, const int *displs, int me, int p, MPI_Comm comm) {
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(all + displs[me], counts[me], MPI_DOUBLE, q, 4, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
