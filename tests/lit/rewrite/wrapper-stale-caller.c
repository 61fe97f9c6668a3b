// The callers of the program's own wrappers are found by the line the
// trace gives for them. When the caller's file changed since it was
// instrumented (here one line added at its top: every caller moves down),
// the site database is stale for it, even though the file holds no site of
// its own (the sites are in the wrappers' header): the rewriter says so and
// what to do, not "no send_int call at prog.c:LINE". Hermetic: mock mpi.h,
// a report by hand.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c && cp %S/Inputs/wrapped/int_wrappers.h %t/
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=16 lines=5,6 callers=26,28 caller_file=prog.c' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p1 -- %mock-mpi | FileCheck --check-prefix=FRESH %s
// RUN: sed -i '1i /* a comment added after instrumenting */' %t/prog.c
// RUN: not %collectivize rewrite -q %t/report.json -o %t/p2 -- %mock-mpi | FileCheck --check-prefix=STALE %s
// FRESH: 01-bcast: proposed prog.c:24-29 -> MPI_Bcast(table, 16, MPI_INT, root, MPI_COMM_WORLD);
// STALE: 01-bcast: none
// STALE-NEXT: no patch: prog.c, which calls the wrapper send_int, changed since it was instrumented (the site database is stale): instrument, build, trace and detect again, then rewrite
// STALE-NOT: no send_int call
#include "int_wrappers.h"

// Below: the callers. No MPI call of their own here: the database records
// this file only as a source it parsed.

void broadcast_table(int *table, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_int(table, 16, q);
  } else {
    recv_int(table, 16, root);
  }
}
