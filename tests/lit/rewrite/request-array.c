// A broadcast whose root starts nonblocking sends into a request array it
// allocates, waits for them and frees the array: the array, its counter,
// the wait and the free go with the pattern; the work around them stays.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=16 datatype=MPI_DOUBLE' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(field, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
#include <mpi.h>
#include <stdlib.h>

void refresh(double *field, int n, int root, int me, int p) {
  if (me == root) {
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)p);
    int k = 0;
    for (int i = 0; i < n; i++) field[i] *= 0.5;
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Isend(field, n, MPI_DOUBLE, q, 4, MPI_COMM_WORLD, &reqs[k++]);
    MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
  } else {
    MPI_Recv(field, n, MPI_DOUBLE, root, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
// CHECK:      void refresh(double *field, int n, int root, int me, int p) {
// CHECK-NEXT:   if (me == root) {
// CHECK-NEXT:     for (int i = 0; i < n; i++) field[i] *= 0.5;
// CHECK-NEXT:   }
// CHECK-NEXT:   MPI_Bcast(field, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
// CHECK-NEXT: }
