// The reduce-scatter ring's patch copies the result back with a loop of
// its own; its counter must be a name the program never uses. Here the
// program's block count is a variable called cz_i (the name the copy
// loop would take first) and another function uses cz_i2: the counter is
// cz_i3, so `cz_i3 < cz_i` still runs over the block's elements.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"]' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-reduce_scatter: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Reduce_scatter_block(acc, in, cz_i, MPI_INT, MPI_SUM, comm);
#include <mpi.h>
#include <stdlib.h>

int other(int cz_i2) { return cz_i2 + 1; }

long rs_named(MPI_Comm comm) {
  int me, p, cz_i = 4;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * cz_i * p), in[cz_i];
  for (int i = 0; i < cz_i * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * cz_i, cz_i, MPI_INT, (me + 1) % p, 5, in, cz_i, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < cz_i; i++) acc[got * cz_i + i] += in[i];
  }
  long check = 0;
  for (int i = 0; i < cz_i; i++) check += acc[me * cz_i + i];
  free(acc);
  return check;
}
// CHECK:      long rs_named(MPI_Comm comm) {
// CHECK:        for (int i = 0; i < cz_i * p; i++) acc[i] = me * 100 + i;
// CHECK-NEXT:   {
// CHECK-NEXT:     MPI_Reduce_scatter_block(acc, in, cz_i, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:     for (int cz_i3 = 0; cz_i3 < cz_i; cz_i3++) acc[me * cz_i + cz_i3] = in[cz_i3];
// CHECK-NEXT:   }
// CHECK-NEXT:   long check = 0;
