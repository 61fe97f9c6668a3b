// A direct gatherv: the root receives rank q's block into all + displs[q],
// counts[q] elements, and every other rank sends its own n elements.
// MPI_Gatherv on the program's own arrays, the root's block left where it
// is (MPI_IN_PLACE, as the original never moved it). Proposed only when
// counts[q] at the root is shown to equal what rank q sends: evaluated
// from the fills in the source (first function). Counts the source does
// not fill (a parameter) or that disagree with the sender's give a patch
// to review with the reason; a source count the trace contradicts gives
// none, as does a trace in which the root sent itself its block. No count
// the report gives enters a patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gatherv root=0 count=1 counts=[null,2,3,1] lines=37-53' 'gatherv root=0 count=1 lines=55-66' 'gatherv root=0 count=1 lines=68-83' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-gatherv.md
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gatherv root=0 count=1 counts=[null,5,3,1] lines=37-53' > %t/wrong.json
// RUN: %collectivize rewrite -q %t/wrong.json -o %t/w -- %mock-mpi | FileCheck %s --check-prefix=WRONG
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gatherv root=0 count=1 messages=4 lines=37-53' > %t/self.json
// RUN: %collectivize rewrite -q %t/self.json -o %t/s -- %mock-mpi | FileCheck %s --check-prefix=SELF
// CHECK: 01-gatherv: proposed prog.c:{{.*}} -> MPI_Gatherv((me == 0 ? MPI_IN_PLACE : mine), n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, comm);
// CHECK: 02-gatherv: review prog.c:{{.*}} -> MPI_Gatherv((me == 0 ? MPI_IN_PLACE : mine), n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, comm);
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`counts` is a parameter: its elements may be set where the function does not show): MPI_Gatherv needs them equal
// CHECK: 03-gatherv: review prog.c:{{.*}} -> MPI_Gatherv(
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (the root receives counts[1] = 3 elements for rank 1, which sends 2 at P = 2 with root 0)
// A root that moved its own block by a message (one message per member):
// MPI_IN_PLACE would not move it.
// SELF: 01-gatherv: none
// SELF-NEXT: no patch: the trace shows 4 messages in 1 instances, not one per member but the root
// WRONG: 01-gatherv: none
// WRONG-NEXT: no patch: rank 1 sends n = 2 elements by the source, but the trace shows 5
// NOTES: - recvcounts: counts, displs: displs (the arrays every receive of the root takes its count and displacement from, at the peer's index, unchanged across the region)
// NOTES: - counts[q] at the root equals n at rank q, evaluated from the source's fills for every rank and root at P = 2, 3, 4, 5 and 7 and the traced size, where it is the trace's count, and the root's blocks do not overlap
// NOTES-NOT: 3, 1]
#include <mpi.h>
#include <stdlib.h>

void filled(const double *mine, double *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  for (int q = 0; q < p; q++) counts[q] = q % 3 + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
  free(counts), free(displs);
}

void given(const double *mine, double *all, const int *counts, const int *displs, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me + 1;
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}

void disagree(const double *mine, double *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  int counts[64], displs[64];
  for (int q = 0; q < p; q++) counts[q] = q + 2;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}
