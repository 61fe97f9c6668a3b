// C++: calls in templates are one site per source location, however many
// instantiations (type-dependent calls have an unresolved callee in the
// pattern); calls in class templates, lambdas and through a macro. The
// instrumented copy compiles with mpicxx and runs as the original does.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicxx -std=c++17
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
// RUN: %mpicxx -std=c++17 -iquote %S %t/out/template.cpp -o %t/instrumented %cz-trace-lib -Wl,-rpath,%cz-trace-libdir
// RUN: env COLLECTIVIZE_TRACE_DIR=%t/trace COLLECTIVIZE_QUIET=1 %mpirun -np 2 %t/instrumented | sort | FileCheck %s --check-prefix=OUT
// RUN: %collectivize trace dump %t/trace > %t/dump.txt
// RUN: %cz-check-trace-sites %t/dump.txt %t/out/collectivize-sites.json | FileCheck %s --check-prefix=SITES
#include <cstdio>
#include <vector>

#include "Inputs/halo.h"

#define RECV_ONE(x, from) MPI_Recv(&(x), 1, mpi_type<decltype(x)>(), from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)

template <typename T> void send_all(const std::vector<T> &v, int to) {
  MPI_Send(v.data(), int(v.size()), mpi_type<T>(), to, 0, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],"column":3,{{.*}}"callee":"MPI_Send",{{.*}}"args":["v.data()","int(v.size())","mpi_type<T>()","to","0","MPI_COMM_WORLD"],"function":"send_all",{{.*}}"in_template":true,"anchor":"call","instrumented":true,
  MPI_Barrier(MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],"column":3,{{.*}}"callee":"MPI_Barrier",{{.*}}"in_template":true,
}

template <typename T> struct Receiver {
  std::vector<T> buf;
  void from(int rank) {
    MPI_Recv(buf.data(), int(buf.size()), mpi_type<T>(), rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Recv",{{.*}}"function":"Receiver::from",{{.*}}"in_template":true,
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    send_all(std::vector<int>{1, 2, 3}, 1);
    send_all(std::vector<double>{0.5, 1.5}, 1);
    auto one = [&](int x) { MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); };
// CHECK-NEXT: "line":[[@LINE-1]],"column":29,{{.*}}"callee":"MPI_Send",{{.*}}"context":[{"kind":"if",{{.*}}},{"kind":"lambda",{{.*}}"in_template":false,
    one(7);
  } else {
    Receiver<int> ri{std::vector<int>(3)};
    Receiver<double> rd{std::vector<double>(2)};
    ri.from(0);
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Barrier",{{.*}}"in_template":false,
    rd.from(0);
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,
    int x = 0;
    RECV_ONE(x, 0);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Recv",{{.*}}"macro":{"name":"RECV_ONE",{{.*}}"anchor":"macro-expansion","instrumented":true,
    std::printf("rank 1: %d %d %d | %.1f %.1f | %d\n", ri.buf[0], ri.buf[1], ri.buf[2], rd.buf[0],
                rd.buf[1], x);
  }
  MPI_Finalize();
}
// CHECK-NOT: "id"
// OUT: rank 1: 1 2 3 | 0.5 1.5 | 7

// SITES: site template.cpp:{{[0-9]+}} MPI_Send
// SITES: 7 traced sites, all in the site database; 0 uninstrumented call addresses
