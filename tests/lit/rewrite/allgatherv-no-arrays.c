// An allgatherv whose receives compute each block's count and place
// inline (no arrays in the program): no patch, since a count the trace
// saw never becomes a literal; the rationale suggests the call with the
// arrays as placeholders, each explained.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_INT counts=[2,3,4,5] bytes_per_instance=56' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-allgatherv.md
// RUN: FileCheck %s --check-prefix=JSON < %t/p/patches.json
// CHECK: 01-allgatherv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Allgatherv: the receive at line {{[0-9]+}} moves `q + 2` (line {{[0-9]+}}) elements, not an element of an array of counts indexed by the block's rank; the rationale suggests MPI_Allgatherv(mine, me + 2, MPI_INT, all, <recvcounts>, <displs>, MPI_INT, comm), its arrays to supply by hand
// NOTES: ## Suggested replacement (not a patch)
// NOTES: MPI_Allgatherv(mine, me + 2, MPI_INT, all, <recvcounts>, <displs>, MPI_INT, comm)
// NOTES: - <recvcounts>: an int array the program must supply on every rank, one element per rank of the communicator: element q is the number of elements in rank q's block. The hand-made receive moves `q + 2` (line {{[0-9]+}}); no count the trace saw is used
// NOTES-NEXT: - <displs>: an int array the program must supply on every rank: element q is where rank q's block starts in the receive buffer, counted in elements of its datatype. The hand-made receive writes `all + q * (q + 3) / 2` (line {{[0-9]+}})
// NOTES-NOT: 2, 3, 4, 5
// JSON: "call": "MPI_Allgatherv(mine, me + 2, MPI_INT, all, <recvcounts>, <displs>, MPI_INT, comm)",
#include <mpi.h>

void exchange(const int *mine, int *all, int me, int p, MPI_Comm comm) {
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(all + q * (q + 3) / 2, q + 2, MPI_INT, q, 4, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(mine, me + 2, MPI_INT, q, 4, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
