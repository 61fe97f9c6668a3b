// A textbook helper takes the rank and the size as arguments and sends
// down a hypercube rooted at 0 by construction (`partner = my_rank ^
// bitmask`, the lower rank sends): the helper compares the rank with no
// constant, but its only caller passes its own MPI_Comm_rank result and
// singles rank 0 out where it reads the input. The peers depend on the
// rank and the size alone, so the root is the 0 of the caller's
// comparison (as in a course copy of Pacheco's bcast.c and global_sum.c).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=1 datatype=MPI_INT lines=35,37' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: grep -q 'in a caller that passes its rank in' %t/p/01-bcast.md
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(&in_val, 1, MPI_INT, 0, comm);
// The same helper called once with a value that is not the caller's rank:
// the parameter is not the rank, and nothing names the root.
// RUN: sed 's/result = Bcast(in_val, my_rank, p, comm);/result = Bcast(in_val, my_rank, p, comm) + Bcast(in_val, p - 1 - my_rank, p, comm);/' %s > %t/other.c
// RUN: %collectivize instrument -q --root %t -o %t/inst2 %t/other.c -- %mock-mpi
// RUN: %cz-make-report %t/inst2/collectivize-sites.json 'bcast root=0 count=1 datatype=MPI_INT lines=35,37' > %t/report2.json
// RUN: %collectivize rewrite -q %t/report2.json -o %t/p2 -- %mock-mpi | FileCheck %s --check-prefix=NOTRANK
// NOTRANK: 01-bcast: none
// NOTRANK-NEXT: no patch: no root expression:{{.*}}the trace shows root 0, which a patch must not freeze
#include <mpi.h>
#include <stdio.h>

int Bcast(int in_val, int my_rank, int p, MPI_Comm comm) {
  int partner;
  unsigned bitmask = 1;
  int participate = bitmask << 1;
  while (bitmask < p) {
    if (my_rank < participate) {
      partner = my_rank ^ bitmask;
      if (my_rank < partner) {
        if (partner < p)
          MPI_Send(&in_val, 1, MPI_INT, partner, 0, comm);
      } else {
        MPI_Recv(&in_val, 1, MPI_INT, partner, 0, comm, MPI_STATUS_IGNORE);
      }
    }
    bitmask <<= 1;
    participate <<= 1;
  }
  return in_val;
}

int main(int argc, char **argv) {
  int p, my_rank, in_val = 0, result;
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &my_rank);
  if (my_rank == 0) in_val = 42;
  result = Bcast(in_val, my_rank, p, comm);
  printf("%d\n", result);
  MPI_Finalize();
  return 0;
}
// CHECK:      int Bcast(int in_val, int my_rank, int p, MPI_Comm comm) {
// CHECK-NEXT:   MPI_Bcast(&in_val, 1, MPI_INT, 0, comm);
// CHECK-NEXT:   return in_val;
// CHECK-NEXT: }
