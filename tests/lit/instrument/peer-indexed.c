// A send whose buffer (a receive whose buffer) is an address the call's
// peer chooses, taken apart on the AST (the site record's "peer_indexed"):
// the detector reads a scatter (gather) from a buffer per member from it.
// Every form is recorded however it is spaced, cast or parenthesised, with
// the peer itself, an expression equal to it, or a local copy of it as the
// index; another index, a constant peer, the own rank and a copy that
// changes before the call leave no record.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
#include <mpi.h>

enum { ROWS = 16, WIDTH = 10 };

void forms(int me, int p, int n, int *a, int **bufs, int rows[ROWS][WIDTH], int *blocks[]) {
  for (int i = 1; i < p; i++) {
    MPI_Send(&a[i * n], n, MPI_INT, i, 0, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"&a[i * n]","array":"a","index":"i","stride":"n","peer":"i","follows":"same"}}
    MPI_Recv(a+i*n, n, MPI_INT, i, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"a+i*n","array":"a","index":"i","stride":"n","peer":"i","follows":"same"}}
    MPI_Send(a + n * (i), n, MPI_INT, (i), 2, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"a + n * (i)","array":"a","index":"i","stride":"n","peer":"(i)","follows":"same"}}
    MPI_Isend(&rows[i][0], WIDTH, MPI_INT, i, 3, MPI_COMM_WORLD, MPI_REQUEST_NULL);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"row","buffer":"&rows[i][0]","array":"rows","index":"i","stride":"1","peer":"i","follows":"same"}}
    MPI_Irecv(rows[i], WIDTH, MPI_INT, i, 4, MPI_COMM_WORLD, MPI_REQUEST_NULL);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"row","buffer":"rows[i]","array":"rows","index":"i","stride":"1","peer":"i","follows":"same"}}
    MPI_Ssend(bufs[i], n, MPI_INT, i, 5, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"pointer","buffer":"bufs[i]","array":"bufs","index":"i","stride":"1","peer":"i","follows":"same"}}
    MPI_Send((char *)&a[(long)i], 1, MPI_INT, i, 6, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"(char *)&a[(long)i]","array":"a","index":"(long)i","stride":"1","peer":"i","follows":"same"}}
    int dest = i;
    MPI_Send(blocks[dest], n, MPI_INT, dest, 7, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"pointer","buffer":"blocks[dest]","array":"blocks","index":"dest","stride":"1","peer":"dest","follows":"same"}}
    MPI_Send(&a[i * n], n, MPI_INT, dest, 8, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"&a[i * n]","array":"a","index":"i","stride":"n","peer":"dest","follows":"copy"}}
    MPI_Recv(&a[(me + i) % p * n], n, MPI_INT, (me + i) % p, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"&a[(me + i) % p * n]","array":"a","index":"(me + i) % p","stride":"n","peer":"(me + i) % p","follows":"same"}}
  }
}

// Negative cases: no record.
void others(int me, int p, int n, int *a, int **bufs, int j) {
  for (int i = 1; i < p; i++) {
    MPI_Send(&a[j * n], n, MPI_INT, i, 10, MPI_COMM_WORLD); // another index
// CHECK: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["loop"]}
    MPI_Send(&a[me * n], n, MPI_INT, i, 11, MPI_COMM_WORLD); // the own rank, not the peer
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["loop"]}
    MPI_Send(a, n, MPI_INT, i, 12, MPI_COMM_WORLD); // one buffer for all
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["loop"]}
    int dest = i;
    i = i + 1;
    MPI_Send(bufs[dest], n, MPI_INT, i, 13, MPI_COMM_WORLD); // the copy is stale
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["loop"]}
  }
  MPI_Send(&a[2 * n], n, MPI_INT, 2, 14, MPI_COMM_WORLD); // a constant peer
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["constant"]}
  MPI_Recv(bufs[0], n, MPI_INT, 0, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // constant again
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Recv"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["constant"]}
  MPI_Sendrecv(&a[j * n], n, MPI_INT, j, 16, &a[j * n], n, MPI_INT, j, 16, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE); // not a send or a receive alone
// CHECK-NEXT: "line":[[@LINE-2]],{{.*}}"callee":"MPI_Sendrecv"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["parameter","parameter"]}
}
