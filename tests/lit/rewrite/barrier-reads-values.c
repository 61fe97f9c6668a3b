// Every rank tells rank 0 whether it is done, and rank 0 answers with the
// verdict: the messages line up like a barrier, but the program reads
// what they carry. MPI_Barrier would not deliver it: no patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'barrier' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-barrier: none
// CHECK-NEXT: no patch: the messages carry values the program reads: MPI_Recv at line 23 receives into 'done', read at line 25; a barrier would not deliver them
#include <mpi.h>

int all_done(int mine, int me, int p) {
  int flag, done = mine;
  if (me == 0) {
    for (int q = 1; q < p; q++) {
      MPI_Recv(&flag, 1, MPI_INT, q, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      done = done && flag;
    }
    for (int q = 1; q < p; q++) MPI_Send(&done, 1, MPI_INT, q, 7, MPI_COMM_WORLD);
  } else {
    MPI_Send(&done, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    MPI_Recv(&done, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return done;
}
