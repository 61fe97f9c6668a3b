// A central barrier of one-byte tokens: every message carries the same
// value, so the detector calls it an *ambiguous* barrier (`values_read`: a
// barrier only if no rank reads the token). The source reads none of them,
// so the patch is made, and its rationale says what the trace left open and
// how the source answered it; the detection report's ambiguity is not lost
// between the two files.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'barrier status=ambiguous unproven=["values_read"]' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck --check-prefix=WHY %s < %t/p/01-barrier.md
// The same match confirmed: nothing was left open, no such section.
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'barrier' > %t/confirmed.json
// RUN: %collectivize rewrite -q %t/confirmed.json -o %t/pc -- %mock-mpi | FileCheck %s
// RUN: FileCheck --check-prefix=CONFIRMED %s < %t/pc/01-barrier.md
// CHECK: 01-barrier: proposed
// WHY: Status: **proposed**
// WHY: ## What the trace left open
// WHY: The detector reported this match as *ambiguous*
// WHY-NEXT: {{^$}}
// WHY-NEXT: - `values_read`: the messages carry values, so they are a barrier only if no rank reads them; the source reads none of the received values after the region
// WHY: ## The patch
// CONFIRMED-NOT: left open
#include <mpi.h>

void central_barrier(int me, int p) {
  char token = 1;
  if (me == 0) {
    for (int q = 1; q < p; q++) MPI_Recv(&token, 1, MPI_CHAR, q, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int q = 1; q < p; q++) MPI_Send(&token, 1, MPI_CHAR, q, 4, MPI_COMM_WORLD);
  } else {
    MPI_Send(&token, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_CHAR, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
