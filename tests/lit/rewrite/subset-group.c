// The broadcast ran on ranks 0 and 2 of MPI_COMM_WORLD only: no
// communicator in the source holds exactly that group, and the split
// colors the trace shows must not become literals, so no patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=4 ranks=0,2 subset=true split={"colors":[0,-1,0,-1]}' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-bcast: none
// CHECK-NEXT: no patch: the collective runs on a part of its communicator (ranks [0, 2]): the source has no communicator holding exactly that group; create it (MPI_Comm_split) and call the collective on it by hand
#include <mpi.h>

void even_ranks(int *v, int me, int p) {
  if (me == 0) {
    for (int q = 2; q < p; q += 2) MPI_Send(v, 4, MPI_INT, q, 1, MPI_COMM_WORLD);
  } else if (me % 2 == 0) {
    MPI_Recv(v, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
