// An instrumented program computes what the original computes: both run
// under mpirun on 3 ranks and print the same lines (including __FILE__ and
// __LINE__, kept by #line); every site id the tracer recorded is in the site
// database.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc
// RUN: %mpicc %s -o %t/original
// RUN: %mpicc %t/out/run.c -o %t/instrumented %cz-trace-lib -Wl,-rpath,%cz-trace-libdir
// RUN: %mpirun -np 3 %t/original | sort > %t/original.txt
// RUN: env COLLECTIVIZE_TRACE_DIR=%t/trace COLLECTIVIZE_QUIET=1 %mpirun -np 3 %t/instrumented | sort > %t/instrumented.txt
// RUN: diff %t/original.txt %t/instrumented.txt
// RUN: FileCheck %s --check-prefix=OUT < %t/instrumented.txt
// RUN: %collectivize trace dump %t/trace > %t/dump.txt
// RUN: %cz-check-trace-sites %t/dump.txt %t/out/collectivize-sites.json | FileCheck %s --check-prefix=SITES
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 8
/* A whole call as a macro: wrapped where it is used. */
#define RECV_FROM(buf, src) MPI_Recv(buf, N, MPI_DOUBLE, src, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
/* A statement macro holding a loop of sends: wrapped in the #define. */
#define SEND_ALL(buf, size)                                                    \
  do {                                                                         \
    for (int r_ = 1; r_ < (size); r_++)                                        \
      MPI_Send(buf, N, MPI_DOUBLE, r_, 5, MPI_COMM_WORLD);                     \
  } while (0)

static const char *base(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

int main(int argc, char **argv) {
  int rank, size;
  double v[N], sum = 0, left = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; i++) v[i] = rank == 0 ? i * 1.5 : 0;
  if (rank == 0) SEND_ALL(v, size);
  else RECV_FROM(v, 0);
  /* A ring exchange with nonblocking calls. */
  MPI_Request req[2];
  double mine = rank + 1;
  MPI_Irecv(&left, 1, MPI_DOUBLE, (rank + size - 1) % size, 6, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(&mine, 1, MPI_DOUBLE, (rank + 1) % size, 6, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  for (int i = 0; i < N; i++) sum += v[i];
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d sum %.1f left %.0f at %s:%d\n", rank, sum, left, base(__FILE__), __LINE__);
  MPI_Finalize();
  return 0;
}
// OUT:      rank 0 sum 126.0 left 3 at run.c:[[@LINE-4]]
// OUT-NEXT: rank 1 sum 126.0 left 1 at run.c:[[@LINE-5]]
// OUT-NEXT: rank 2 sum 126.0 left 2 at run.c:[[@LINE-6]]

// SITES:      site run.c:27 MPI_Send
// SITES-NEXT: site run.c:43 MPI_Recv
// SITES-NEXT: site run.c:47 MPI_Irecv
// SITES-NEXT: site run.c:48 MPI_Isend
// SITES-NEXT: site run.c:51 MPI_Allreduce
// SITES-NEXT: 5 traced sites, all in the site database; 0 uninstrumented call addresses
