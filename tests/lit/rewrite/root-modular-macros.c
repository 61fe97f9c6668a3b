// A hypercube broadcast from a root the caller passes, written with
// modular macros as HPL's HPL_broadcast is: the rank is made relative to
// the root through MOD_SUB(rank, root, size), and the partner is turned
// back into a rank through MOD_ADD(root, partner, size), whose wrap-around
// subtracts the size. The root is `root`, never `(size)` (before: the
// patch said MPI_Bcast(buf, n, MPI_INT, (size), comm), taking the size
// subtracted in MOD_ADD for the base the rank is relative to).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=4 datatype=MPI_INT' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=WHY < %t/p/01-bcast.md
// SUMMARY: 01-bcast: {{proposed|review}} prog.c:{{.*}} -> MPI_Bcast(buf, n, MPI_INT, {{\(?}}root{{\)?}}, comm);
// WHY: root: {{\(?}}root{{\)?}} (the rank is taken relative to it
#include <mpi.h>

#define MOD_SUB(a, b, d) (((a) < (b)) ? (d) + (a) - (b) : (a) - (b))
#define MOD_ADD(a, b, d) (((a) + (b) < (d)) ? (a) + (b) : (a) + (b) - (d))

void hypercube_bcast(int *buf, int n, int root, MPI_Comm comm) {
  int rank, size, ip2 = 1, mask = 1, kk, mydist, partner;
  MPI_Status status;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  kk = size - 1;
  while (kk > 1) { kk >>= 1; ip2 <<= 1; mask <<= 1; mask++; }
  mydist = MOD_SUB(rank, root, size);
  do {
    mask ^= ip2;
    if ((mydist & mask) == 0) {
      partner = mydist ^ ip2;
      if (mydist & ip2) {
        partner = MOD_ADD(root, partner, size);
        MPI_Recv(buf, n, MPI_INT, partner, 0, comm, &status);
      } else if (partner < size) {
        partner = MOD_ADD(root, partner, size);
        MPI_Send(buf, n, MPI_INT, partner, 0, comm);
      }
    }
    ip2 >>= 1;
  } while (ip2);
}
