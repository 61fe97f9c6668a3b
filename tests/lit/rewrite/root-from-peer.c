// A broadcast whose ranks know their role from a flag, not from comparing
// their rank: the root is the peer every receive names (`root`), never the
// rank the trace shows.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=2 count=8 datatype=MPI_DOUBLE' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(v, n, MPI_DOUBLE, root, comm);
#include <mpi.h>

void share(double *v, int n, int is_root, int root, MPI_Comm comm) {
  int p;
  MPI_Comm_size(comm, &p);
  if (is_root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(v, n, MPI_DOUBLE, q, 9, comm);
  } else {
    MPI_Recv(v, n, MPI_DOUBLE, root, 9, comm, MPI_STATUS_IGNORE);
  }
}
// CHECK:      void share(double *v, int n, int is_root, int root, MPI_Comm comm) {
// CHECK-NEXT:   int p;
// CHECK-NEXT:   MPI_Comm_size(comm, &p);
// CHECK-NEXT:   MPI_Bcast(v, n, MPI_DOUBLE, root, comm);
// CHECK-NEXT: }
