// "peer_indexed" in C++: a std::vector's element address the peer chooses
// (&v[i * n], its operator[]) is recorded like a C array's; another index
// is not, nor is a call in a template's pattern (its types unknown there).
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicxx -std=c++17
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
#include <mpi.h>
#include <vector>

void scatter_rows(std::vector<double> &all, int n, int p, int j) {
  for (int i = 1; i < p; i++) {
    MPI_Send(&all[i * n], n, MPI_DOUBLE, i, 0, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"peer_indexed":{"layout":"offset","buffer":"&all[i * n]","array":"all","index":"i","stride":"n","peer":"i","follows":"same"}}
    MPI_Send(&all[j * n], n, MPI_DOUBLE, i, 1, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["loop"]}
  }
}

template <class T> void scatter_template(std::vector<T> &all, int n, int p) {
  for (int i = 1; i < p; i++)
    MPI_Send(&all[i * n], n, MPI_BYTE, i, 2, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: peer_indexed
// CHECK-SAME: "peers":["loop"]}
}
