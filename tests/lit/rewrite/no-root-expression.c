// Receivers take the data from any source and nothing in the source names
// the root: there is no expression for MPI_Bcast's root, so no patch (the
// trace's root 0 must not become a literal), and the file is untouched.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=8' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-bcast: none
// CHECK-NEXT: no patch: no root expression: the source names the root in no rank comparison, no peer that is the same at every site and no rank made relative to it{{.*}}; the trace shows root 0, which a patch must not freeze
#include <mpi.h>

void share(int *v, int n, int is_root, MPI_Comm comm) {
  int p, me;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &me);
  if (is_root) {
    for (int q = 0; q < p; q++)
      if (q != me) MPI_Send(v, n, MPI_INT, q, 9, comm);
  } else {
    MPI_Recv(v, n, MPI_INT, MPI_ANY_SOURCE, 9, comm, MPI_STATUS_IGNORE);
  }
}
