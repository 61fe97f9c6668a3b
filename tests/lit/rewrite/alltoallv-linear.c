// A direct alltoallv: every rank sends rank q the block out + sd[q] of
// sc[q] elements and receives rank q's block into in + rd[q], rc[q]
// elements, nonblocking, completed together, and copies its own block
// itself: MPI_Alltoallv on the program's own four arrays, found where the
// messages read them, proposed because the fills in the source show rank
// r's rc[q] equal to rank q's sc[r] (each receive is posted for exactly
// what its peer sends). The copy goes with the messages (the call makes
// it); the counts the report gives appear nowhere in the patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv count=2 datatype=MPI_DOUBLE counts=[2,3,4,2] bytes_per_instance=88' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-alltoallv.md
// SUMMARY: 01-alltoallv: proposed prog.c:{{.*}} -> MPI_Alltoallv(out, sc, sd, MPI_DOUBLE, in, rc, rd, MPI_DOUBLE, comm);
// NOTES: - sendcounts: sc, sdispls: sd, recvcounts: rc, rdispls: rd (the arrays every send and receive takes its count and displacement from, at the peer's index, unchanged across the region)
// NOTES: - rc[q] at rank r equals sc[r] at rank q, evaluated from the source's fills for every pair of ranks at P = 2, 3, 4, 5 and 7
// NOTES: - each rank's own block: the copy of out + sd[me] into in + rd[me] at line 36 is part of the exchange; MPI_Alltoallv makes it, so the patch drops it
// NOTES-NOT: 88
#include <mpi.h>

void exchange(const double *out, double *in, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int sc[64], sd[64], rc[64], rd[64];
  for (int q = 0; q < p; q++) sc[q] = (me + q) % 3 + 1, rc[q] = (q + me) % 3 + 1;
  sd[0] = rd[0] = 0;
  for (int q = 1; q < p; q++) sd[q] = sd[q - 1] + sc[q - 1], rd[q] = rd[q - 1] + rc[q - 1];
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_DOUBLE, q, 3, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_DOUBLE, q, 3, comm, &req[n++]);
  for (int i = 0; i < rc[me]; i++) in[rd[me] + i] = out[sd[me] + i];
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
// CHECK:      void exchange(const double *out, double *in, MPI_Comm comm) {
// CHECK-NEXT:   int me, p;
// CHECK-NEXT:   MPI_Comm_rank(comm, &me);
// CHECK-NEXT:   MPI_Comm_size(comm, &p);
// CHECK-NEXT:   int sc[64], sd[64], rc[64], rd[64];
// CHECK-NEXT:   for (int q = 0; q < p; q++) sc[q] = (me + q) % 3 + 1, rc[q] = (q + me) % 3 + 1;
// CHECK-NEXT:   sd[0] = rd[0] = 0;
// CHECK-NEXT:   for (int q = 1; q < p; q++) sd[q] = sd[q - 1] + sc[q - 1], rd[q] = rd[q - 1] + rc[q - 1];
// CHECK-NEXT:   MPI_Alltoallv(out, sc, sd, MPI_DOUBLE, in, rc, rd, MPI_DOUBLE, comm);
// CHECK-NEXT: }
