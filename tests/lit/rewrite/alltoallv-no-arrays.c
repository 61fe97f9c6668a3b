// An alltoallv whose sends compute each block's count and place inline
// (no arrays in the program), while its receives use arrays: no patch,
// since a count the trace saw never becomes a literal; the rationale
// suggests the call with the receive side's arrays and placeholders for
// the send side, each explained.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv count=2 datatype=MPI_INT counts=[2,3,4,5] bytes_per_instance=56' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-alltoallv.md
// RUN: FileCheck %s --check-prefix=JSON < %t/p/patches.json
// CHECK: 01-alltoallv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Alltoallv: the send at line {{[0-9]+}} moves `q + 2` (line {{[0-9]+}}) elements, not an element of an array of counts indexed by the block's rank; the rationale suggests MPI_Alltoallv(<sendbuf>, <sendcounts>, <sdispls>, MPI_INT, in, rc, rd, MPI_INT, comm), its arrays to supply by hand
// NOTES: ## Suggested replacement (not a patch)
// NOTES: MPI_Alltoallv(<sendbuf>, <sendcounts>, <sdispls>, MPI_INT, in, rc, rd, MPI_INT, comm)
// NOTES: - <sendbuf>, <sendcounts>, <sdispls>: the buffer every block is sent from, and two int arrays the program must supply on every rank, one element per rank of the communicator: element q is the count of the block for rank q and where it starts in <sendbuf>, in elements of its datatype. The hand-made send moves `q + 2` (line {{[0-9]+}}) elements from `out + q * (q + 3) / 2` (line {{[0-9]+}}); no count the trace saw is used
// NOTES-NOT: 2, 3, 4, 5
// JSON: "call": "MPI_Alltoallv(<sendbuf>, <sendcounts>, <sdispls>, MPI_INT, in, rc, rd, MPI_INT, comm)",
#include <mpi.h>

void exchange(const int *out, int *in, const int *rc, const int *rd, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 4, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + q * (q + 3) / 2, q + 2, MPI_INT, q, 4, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
