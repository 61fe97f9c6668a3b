// Sites in the program's own wrappers of MPI calls (every peer a parameter
// of the enclosing function) report their caller: the copy keeps such a
// wrapper out of line and passes its return address; the site database
// says "call_path": "caller". A function that computes a peer itself holds
// its pattern: its sites stay plain, and so do main's.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
// RUN: FileCheck %s --check-prefix=COPY --input-file %t/out/call-path.c
// The copy compiles without warnings, and the wrapper stays a function.
// RUN: %mpicc -O2 -Wall -Wextra -Werror -c %t/out/call-path.c -o %t/call-path.o
// RUN: nm %t/call-path.o | FileCheck %s --check-prefix=SYMBOLS
// COPY: {{^}}void cz_trace_site_at(unsigned long long, void *) __attribute__((weak));
// COPY: {{^}}#line 1 "{{.*}}call-path.c"
#include <mpi.h>

static inline void send_wrapper(const void *buf, int n, int dest) {
  MPI_Send(buf, n, MPI_BYTE, dest, 0, MPI_COMM_WORLD);
}
// COPY: {{^}}_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wattributes\"") __attribute__((noinline)) static inline void send_wrapper(const void *buf, int n, int dest) {{[{]}}{{$}}
// COPY-NEXT: {{^}}  (cz_instrument_site_at_({{[0-9]+}}ULL, __builtin_return_address(0)), MPI_Send(buf, n, MPI_BYTE, dest, 0, MPI_COMM_WORLD));{{$}}
// COPY-NEXT: {{^}}} _Pragma("GCC diagnostic pop"){{$}}
// CHECK: {"id":"{{[0-9]+}}","file":"call-path.c","line":[[@LINE-5]],{{.*}}"callee":"MPI_Send",{{.*}}"function":"send_wrapper",{{.*}}"peers":["parameter"],"call_path":"caller"}

static inline void recv_wrapper(void *buf, int n, int src) {
  MPI_Recv(buf, n, MPI_BYTE, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// COPY: {{^}}{{.*}}__attribute__((noinline)) static inline void recv_wrapper(
// COPY-NEXT: {{^}}  (cz_instrument_site_at_({{[0-9]+}}ULL, __builtin_return_address(0)), MPI_Recv(
// CHECK: {"id":"{{[0-9]+}}","file":"call-path.c","line":[[@LINE-4]],{{.*}}"function":"recv_wrapper",{{.*}}"peers":["parameter"],"call_path":"caller"}

// A broadcast in a helper: the receive's peer is the caller's `root`, but
// the sends go to the ranks of a loop: the helper is the pattern.
static void bcast_helper(int *buf, int n, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(buf, n, MPI_INT, q, 1, MPI_COMM_WORLD);
  } else {
    MPI_Recv(buf, n, MPI_INT, root, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
// COPY: {{^}}static void bcast_helper(int *buf, int n, int root, int me, int p) {{[{]}}{{$}}
// COPY: {{^}}      if (q != root) (cz_instrument_site_({{[0-9]+}}ULL), MPI_Send(
// COPY: {{^}}    (cz_instrument_site_({{[0-9]+}}ULL), MPI_Recv(buf, n, MPI_INT, root,
// CHECK: {"id":"{{[0-9]+}}","file":"call-path.c","line":[[@LINE-8]],{{.*}}"function":"bcast_helper",{{.*}}"peers":["loop"]}
// CHECK: {"id":"{{[0-9]+}}","file":"call-path.c","line":[[@LINE-7]],{{.*}}"function":"bcast_helper",{{.*}}"peers":["parameter"]}

int main(int argc, char **argv) {
  int me, p, x[4] = {0};
  char c = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  bcast_helper(x, 4, 0, me, p);
  if (me == 0) send_wrapper(&c, 1, 1);
  if (me == 1) recv_wrapper(&c, 1, 0);
  if (me == 0) MPI_Send(x, 4, MPI_INT, argc, 2, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// COPY: {{^}}  if (me == 0) (cz_instrument_site_({{[0-9]+}}ULL), MPI_Send(x, 4, MPI_INT, argc,
// CHECK: {"id":"{{[0-9]+}}","file":"call-path.c","line":[[@LINE-5]],{{.*}}"function":"main",{{.*}}"peers":["parameter"]}
// CHECK-NOT: call_path
// SYMBOLS-DAG: t send_wrapper
// SYMBOLS-DAG: t recv_wrapper
