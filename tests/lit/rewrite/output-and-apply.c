// The patch directory and --apply: a directory holding an earlier rewrite
// is cleared first (no stale patch survives), one holding anything else is
// refused; --apply writes only below the project root (--root, else the
// checkout of the current directory) unless --allow-outside-root; --match
// picks matches, and a picked match without a patch exits 1.
// RUN: rm -rf %t && mkdir -p %t/proj %t/elsewhere/.git && cp %s %t/proj/prog.c
// RUN: %collectivize instrument -q --root %t/proj -o %t/inst %t/proj/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast status=partial root=0 count=4' 'bcast root=0 count=4' > %t/two.json
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=4' > %t/one.json
//
// RUN: %collectivize rewrite -q %t/two.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=TWO
// RUN: ls %t/p | FileCheck %s --check-prefix=TWO-FILES
// RUN: %collectivize rewrite -q %t/one.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=ONE
// RUN: ls %t/p | FileCheck %s --check-prefix=ONE-FILES
// TWO: 01-bcast: none
// TWO: 02-bcast: proposed
// TWO-FILES: 01-bcast.md
// TWO-FILES-NEXT: 02-bcast.diff
// ONE: removed the 6 file(s) of an earlier rewrite from {{.*}}/p
// ONE-NEXT: 01-bcast: proposed
// ONE-FILES:      01-bcast.diff
// ONE-FILES-NEXT: 01-bcast.md
// ONE-FILES-NEXT: 01-bcast.yaml
// ONE-FILES-NEXT: all.diff
// ONE-FILES-NEXT: patches.json
// ONE-FILES-EMPTY:
//
// RUN: echo notes > %t/p/notes.txt
// RUN: not %collectivize rewrite -q %t/one.json -o %t/p -- %mock-mpi 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: test -f %t/p/01-bcast.diff
// RUN: not %collectivize rewrite -q %t/one.json -o %t/proj/prog.c -- %mock-mpi 2>&1 | FileCheck %s --check-prefix=NOTDIR
// FOREIGN: collectivize rewrite: -o {{.*}}/p is not empty and holds files that are not an earlier rewrite's (notes.txt): give a new or empty directory (nothing was written)
// NOTDIR: collectivize rewrite: -o {{.*}}prog.c is not a directory
//
// --match: only the picked match; one without a patch, or out of range, exits 1.
// RUN: %collectivize rewrite -q %t/two.json --match 2 -o %t/m2 -- %mock-mpi | FileCheck %s --check-prefix=MATCH2
// RUN: ls %t/m2 | FileCheck %s --check-prefix=MATCH2-FILES
// RUN: not %collectivize rewrite -q %t/two.json --match 1 -o %t/m1 -- %mock-mpi 2>&1 | FileCheck %s --check-prefix=MATCH1
// RUN: not %collectivize rewrite -q %t/two.json --match 3 -o %t/m3 -- %mock-mpi 2>&1 | FileCheck %s --check-prefix=MATCH3
// RUN: not %collectivize rewrite -q %t/two.json --match x -o %t/m3 -- %mock-mpi 2>&1 | FileCheck %s --check-prefix=MATCHX
// MATCH2: 02-bcast: proposed
// MATCH2-NEXT: 1 proposed, 0 to review, 0 without a patch; {{.*}}
// MATCH2-FILES-NOT: 01-bcast
// MATCH1: collectivize rewrite: 01-bcast: no patch for a requested match: a partial match {{.*}}
// MATCH3: collectivize rewrite: --match 3: {{.*}}two.json has 2 match(es)
// MATCHX: collectivize rewrite: --match takes a match number from 1 (NN of NN-KIND), not 'x'
//
// --apply from another checkout: refused, the file untouched; with --root
// or --allow-outside-root it is written.
// RUN: cp %t/proj/prog.c %t/prog.c.orig
// RUN: cd %t/elsewhere && not %collectivize rewrite -q %t/one.json -o %t/a1 --apply -- %mock-mpi 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: cmp %t/prog.c.orig %t/proj/prog.c && not ls %t/proj/prog.c.collectivize-orig
// RUN: cd %t/elsewhere && %collectivize rewrite -q %t/one.json -o %t/a2 --apply --root %t/proj -- %mock-mpi | FileCheck %s --check-prefix=APPLIED
// RUN: mv %t/prog.c.orig %t/proj/prog.c && rm %t/proj/prog.c.collectivize-orig
// RUN: cd %t/elsewhere && %collectivize rewrite -q %t/one.json -o %t/a3 --apply --allow-outside-root -- %mock-mpi | FileCheck %s --check-prefix=APPLIED
// OUTSIDE: collectivize rewrite: --apply: {{.*}}/proj/prog.c is outside the project root {{.*}}/elsewhere (the git checkout holding the current directory): nothing was written. {{.*}}
// APPLIED: applied: {{.*}}/proj/prog.c (original kept as {{.*}}prog.c.collectivize-orig)
#include <mpi.h>

void bcast(int *buf, int n, int root, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(buf, n, MPI_INT, q, 1, comm);
  } else {
    MPI_Recv(buf, n, MPI_INT, root, 1, comm, MPI_STATUS_IGNORE);
  }
}
