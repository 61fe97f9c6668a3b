// One loop sends every rank the length, then the data; receivers take the
// length, make room, take the data. Two broadcasts in one loop: one patch
// with two MPI_Bcast calls in the order the messages went, the receivers'
// realloc between them, the data's count `len` valid there (the first call
// delivered it). The second match is covered by the first's patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=1 count=37 datatype=MPI_CHAR lines=28,33' \
// RUN:   'bcast root=1 count=1 lines=27,31' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY:      01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(&len, 1, MPI_INT, root, comm);
// SUMMARY-NEXT: 02-bcast: none
// SUMMARY-NEXT:  no patch: its messages share a loop with 01-bcast's: 01-bcast's patch replaces both
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

char *share_text(char *text, int root, MPI_Comm comm) {
  int me, p, len = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me == root) {
    len = (int)strlen(text) + 1;
    for (int q = 0; q < p; q++) {
      if (q == root) continue;
      MPI_Send(&len, 1, MPI_INT, q, 1, comm);
      MPI_Send(text, len, MPI_CHAR, q, 2, comm);
    }
  } else {
    MPI_Recv(&len, 1, MPI_INT, root, 1, comm, MPI_STATUS_IGNORE);
    text = realloc(text, (size_t)len);
    MPI_Recv(text, len, MPI_CHAR, root, 2, comm, MPI_STATUS_IGNORE);
  }
  return text;
}
// CHECK:        MPI_Comm_size(comm, &p);
// CHECK-NEXT:   if (me == root) {
// CHECK-NEXT:     len = (int)strlen(text) + 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   MPI_Bcast(&len, 1, MPI_INT, root, comm);
// CHECK-NEXT:   if (!(me == root)) {
// CHECK-NEXT:     text = realloc(text, (size_t)len);
// CHECK-NEXT:   }
// CHECK-NEXT:   MPI_Bcast(text, len, MPI_CHAR, root, comm);
// CHECK-NEXT:   return text;
// CHECK-NEXT: }

// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// One effect per call, in call order (the length, then the text):
// EFFECT:      "effect": [
// EFFECT-NEXT:   {
// EFFECT-NEXT:     "buffer": "&len",
// EFFECT-NEXT:     "count": "1",
// EFFECT:          "buffer": "text",
// EFFECT-NEXT:     "count": "len",
// EFFECT-NEXT:     "datatype": "MPI_CHAR",
// EFFECT:        "effect": null,
// EFFECT-NEXT:   "effect_reason": "",
