// A binomial-tree sum of longs that the program sends as raw bytes
// (MPI_BYTE, sizeof(long)), as HypercubeAllreduce's template does with
// its elements: MPI defines no MPI_SUM on MPI_BYTE, so no patch (an
// MPI_Reduce over MPI_BYTE with MPI_SUM is erroneous MPI), and the reason
// says what a patch would need. An XOR of the same bytes is valid MPI and
// is patched. Hermetic: mock mpi.h, a report by hand.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce root=0 count=8 datatype=MPI_BYTE op=MPI_SUM lines=23-27' 'reduce root=0 count=8 datatype=MPI_BYTE op=MPI_BXOR lines=41-45' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-reduce: none
// CHECK-NEXT: no patch: the messages are typed MPI_BYTE, on which MPI defines no MPI_SUM: the hand-made reduce combines values it sends as bytes; a patch needs their own datatype and count (e.g. MPI_LONG and the element count)
// CHECK: 02-reduce: {{review|proposed}} prog.c:{{.*}} -> MPI_Reduce(me == 0 ? MPI_IN_PLACE : &bits, &bits, sizeof bits, MPI_BYTE, MPI_BXOR, 0, MPI_COMM_WORLD);
#include <mpi.h>

long total(long sum) {
  int me, p;
  long in;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int mask = 1; mask < p; mask <<= 1) {
    if (me & mask) {
      MPI_Send(&sum, sizeof sum, MPI_BYTE, me - mask, 6, MPI_COMM_WORLD);
      break;
    }
    if (me + mask < p) {
      MPI_Recv(&in, sizeof in, MPI_BYTE, me + mask, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += in;
    }
  }
  return me == 0 ? sum : 0;
}

long parity(long bits) {
  int me, p;
  long in;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int mask = 1; mask < p; mask <<= 1) {
    if (me & mask) {
      MPI_Send(&bits, sizeof bits, MPI_BYTE, me - mask, 7, MPI_COMM_WORLD);
      break;
    }
    if (me + mask < p) {
      MPI_Recv(&in, sizeof in, MPI_BYTE, me + mask, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      bits ^= in;
    }
  }
  return me == 0 ? bits : 0;
}
