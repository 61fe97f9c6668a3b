// A direct allgatherv: every rank receives rank q's block into
// all + displs[q], counts[q] elements, and sends its own (already at its
// displacement) to every other rank: MPI_Allgatherv in place on the
// program's own arrays, found where the receives read them. The counts
// the report gives (2, 3, 4, 2) appear nowhere in the patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_DOUBLE counts=[2,3,4,2] bytes_per_instance=88' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-allgatherv.md
// SUMMARY: 01-allgatherv: proposed prog.c:{{.*}} -> MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, comm);
// NOTES: - recvcounts: counts, displs: displs (the arrays every receive takes its count and displacement from, at index q, unchanged across the region)
// NOTES: - every rank's own block already sits in all, at its displacement: MPI_IN_PLACE
#include <mpi.h>

void exchange(double *all, const int *counts, const int *displs, int me, int p, MPI_Comm comm) {
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(all + displs[me], counts[me], MPI_DOUBLE, q, 4, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
// CHECK:      void exchange(double *all, const int *counts, const int *displs, int me, int p, MPI_Comm comm) {
// CHECK-NEXT:   MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, comm);
// CHECK-NEXT: }
