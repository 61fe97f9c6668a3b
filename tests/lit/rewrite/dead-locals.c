// A dissemination barrier whose loop alone used its helpers (IMB-P2P's
// imb_p2p_barrier): left behind, `mask`, `dst`, `src` and `tmp` would be
// unused variables, which IMB's -Werror build refused (collectivize verify
// said "does not build"). Declarations only the replaced code used are
// removed with it, each named in the notes; a declaration of several
// whose others are still used is written again without them (`spare`).
// Kept: locals used after the region. The patched file builds with -Wall
// -Werror, as the original does.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'barrier count=0' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-barrier.md
// RUN: cd %t && git apply p/01-barrier.diff
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: %mpicc -Wall -Werror -c %t/prog.c -o %t/prog.o
// RUN: %mpicc -Wall -Werror -c %s -o %t/original.o
// The same edits everywhere: --apply, all.diff and the YAML remove the declarations the diff does.
// RUN: cp %t/prog.c %t/by-diff.c && cp %s %t/prog.c && %collectivize rewrite -q %t/report.json -o %t/p2 --apply -- %mock-mpi
// RUN: cmp %t/prog.c %t/by-diff.c
// RUN: rm -rf %t/all && mkdir %t/all && cp %s %t/all/prog.c && cd %t/all && git apply ../p/all.diff && cmp prog.c ../by-diff.c
// RUN: FileCheck %s --check-prefix=YAML < %t/p/01-barrier.yaml
// YAML-COUNT-5: {{^ *}}- FilePath:
// YAML-NOT: - FilePath:
// SUMMARY: 01-barrier: proposed prog.c:{{.*}} -> MPI_Barrier(comm);
// NOTES: the declaration `int mask = 1;` (line 38) is removed: only the replaced code used it
// NOTES: the declaration `int dst, src;` (line 39) is removed: only the replaced code used it
// NOTES: the declaration `int tmp = 0;` (line 40) is removed: only the replaced code used it
// NOTES: spare of `int rounds = 0, spare = 0;` (line 41) is removed: only the replaced code used it
// NOTES-NOT: `int stamp
#include <mpi.h>

int next_stamp(void);

int barrier(MPI_Comm comm) {
  int size = 0;
  int rank = 0;
  int mask = 1;
  int dst, src;
  int tmp = 0;
  int rounds = 0, spare = 0;
  int stamp = next_stamp();
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  for (; mask < size; mask <<= 1) {
    dst = (rank + mask) % size;
    src = (rank - mask + size) % size;
    MPI_Sendrecv(&tmp, 0, MPI_BYTE, dst, 9 + spare, &tmp, 0, MPI_BYTE, src, 9 + spare, comm, MPI_STATUS_IGNORE);
  }
  return rounds + rank + stamp;
}
// CHECK:      int barrier(MPI_Comm comm) {
// CHECK-NEXT:   int size = 0;
// CHECK-NEXT:   int rank = 0;
// CHECK-NEXT:   int rounds = 0;
// CHECK-NEXT:   int stamp = next_stamp();
// CHECK-NEXT:   MPI_Comm_size(comm, &size);
// CHECK-NEXT:   MPI_Comm_rank(comm, &rank);
// CHECK-NEXT:   MPI_Barrier(comm);
// CHECK-NEXT:   return rounds + rank + stamp;
// CHECK-NEXT: }
