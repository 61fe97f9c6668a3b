// The receive fills a status that the caller reads after the broadcast
// (its source, its count): MPI_Bcast fills no status, so the patch is one
// to review and is not applied.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=16' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-bcast: review prog.c:{{.*}} -> MPI_Bcast(buf, 16, MPI_INT, 0, MPI_COMM_WORLD);
// CHECK-NEXT: review: the MPI_Status 'st' that MPI_Recv at line [[@LINE+10]] fills is read at line [[@LINE+12]]; the collective call leaves it as it was
#include <mpi.h>

int receive_table(int *buf, int me, int p) {
  MPI_Status st;
  int got = 16;
  st.MPI_SOURCE = -1;
  if (me == 0) {
    for (int q = 1; q < p; q++) MPI_Send(buf, 16, MPI_INT, q, 4, MPI_COMM_WORLD);
  } else {
    MPI_Recv(buf, 16, MPI_INT, 0, 4, MPI_COMM_WORLD, &st);
  }
  if (me != 0) MPI_Get_count(&st, MPI_INT, &got);
  return got + st.MPI_SOURCE;
}
