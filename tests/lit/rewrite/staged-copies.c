// A scatter sent through one temporary buffer and a gather received into
// one scratch buffer (site database "staging"): the collective's buffer is
// the copied array and the copy goes with the messages, which nothing
// proves right; no patch, the copy named, whether the detector left the
// match ambiguous (staged_copy) or a report calls it confirmed. The source
// is left as it was.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scatter root=0 count=8 lines=14-23' 'gather root=0 count=8 datatype="MPI_DOUBLE" lines=25-36' 'scatter root=0 count=8 lines=14-23 status=ambiguous unproven=["staged_copy"]' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: diff %s %t/prog.c
#include <mpi.h>
#include <string.h>

void deal(int *all, int *mine, int me, int p) {
  int tmp[8];
  if (me == 0) {
    for (int q = 1; q < p; q++) {
      memcpy(tmp, all + q * 8, sizeof tmp);
      MPI_Send(tmp, 8, MPI_INT, q, 1, MPI_COMM_WORLD);
    }
  } else {
    MPI_Recv(mine, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

void collect(double *all, double *mine, int me, int p) {
  double scratch[8];
  if (me == 0) {
    for (int k = 1; k < p; k++) {
      MPI_Status st;
      MPI_Recv(scratch, 8, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
      for (int i = 0; i < 8; i++) all[st.MPI_SOURCE * 8 + i] = scratch[i];
    }
  } else {
    MPI_Send(mine, 8, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  }
}
// CHECK: 01-scatter: none
// CHECK-NEXT: no patch: the root sends every block through the staging buffer tmp, filled by the memcpy at prog.c:19 from all + q * 8: the collective is MPI_Scatter from all with that copy removed, which is not made automatically (nothing proves the copy's offset is the rank times the block, nor that tmp is not read elsewhere); patch it by hand
// CHECK: 02-gather: none
// CHECK-NEXT: no patch: the root receives every block through the staging buffer scratch, emptied by the element loop at prog.c:33 to all[st.MPI_SOURCE * 8 + i]: the collective is MPI_Gather into all with that copy removed
// CHECK: 03-scatter: none
// CHECK-NEXT: no patch: the root sends every block through the staging buffer tmp, filled by the memcpy at prog.c:19
// CHECK: 0 proposed, 0 to review, 3 without a patch
