// The root sends a length it computes inside the region, the receivers
// post room for 64: neither expression is the broadcast's count on every
// rank, so no patch (the trace's 10 elements must not become a literal).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=10 datatype=MPI_CHAR' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-bcast: none
// CHECK-NEXT: no patch: no count expression holds for every rank at the patch point (`len` (line {{[0-9]+}}) does not hold at the patch point: 'len' is declared inside the region), and none evaluates to the 10 elements the trace shows: pass the count the same way at every site, then rewrite again
#include <mpi.h>

int message_length(const char *text);

void announce(char *text, int me, int p) {
  if (me == 0) {
    int len = message_length(text);
    for (int q = 1; q < p; q++) MPI_Send(text, len, MPI_CHAR, q, 3, MPI_COMM_WORLD);
  } else {
    MPI_Recv(text, 64, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
