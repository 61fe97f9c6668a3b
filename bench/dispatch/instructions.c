/* instructions.c: instructions per call of each cz_<coll> beside the MPI
 * call it replaces, for callgrind (instruction counts do not change with
 * the machine's load, as times do), at any P. Every loop is its own
 * function, and callgrind closes a part at each loop's start:
 *
 *   mpirun -n P valgrind --tool=callgrind --dump-before='run_*' \
 *       --callgrind-out-file=OUT.%p build/bench/cz_dispatch_instructions [BYTES]
 *   python3 bench/dispatch/instructions.py OUT.PID
 *
 * BYTES (default 8) is the block (the whole message for bcast and
 * allreduce), MPI_INT data. At P = 1 both sides are local; from P = 2 on a
 * call also waits for its peers, and the instructions spent polling depend
 * on who arrives first, so instructions.py also sums the runtime library's
 * own functions: what the dispatch adds (the library runs the same code on
 * the caller's communicator and on the runtime's duplicate). Valgrind 3.19
 * cannot read the debug information clang 14 writes: run it on a copy of
 * libcollectivize made with `strip -g`, through LD_LIBRARY_PATH. */
#include <stdlib.h>

#include <mpi.h>

#include "collectivize.h"

enum { CALLS = 10000 };
static int count, *send, *recv, *counts, *displs;
#define LOOP(name, call)                                      \
  static __attribute__((noinline)) void name(void) {          \
    for (int i = 0; i < CALLS; i++) call;                     \
  }
#define W MPI_COMM_WORLD
LOOP(run_mpi_bcast, MPI_Bcast(send, count, MPI_INT, 0, W))
LOOP(run_cz_bcast, cz_bcast(send, count, MPI_INT, 0, W))
LOOP(run_mpi_alltoall,
     MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, W))
LOOP(run_cz_alltoall,
     cz_alltoall(send, count, MPI_INT, recv, count, MPI_INT, W))
LOOP(run_mpi_allgather,
     MPI_Allgather(send, count, MPI_INT, recv, count, MPI_INT, W))
LOOP(run_cz_allgather,
     cz_allgather(send, count, MPI_INT, recv, count, MPI_INT, W))
LOOP(run_mpi_allreduce, MPI_Allreduce(send, recv, count, MPI_INT, MPI_SUM, W))
LOOP(run_cz_allreduce, cz_allreduce(send, recv, count, MPI_INT, MPI_SUM, W))
LOOP(run_mpi_alltoallv, MPI_Alltoallv(send, counts, displs, MPI_INT, recv,
                                      counts, displs, MPI_INT, W))
LOOP(run_cz_alltoallv, cz_alltoallv(send, counts, displs, MPI_INT, recv,
                                    counts, displs, MPI_INT, W))

/* Called after the last loop: callgrind's --dump-before='run_*' then closes
 * that loop's part before MPI_Finalize. */
static __attribute__((noinline)) void run_end(void) { __asm__ volatile(""); }

int main(int argc, char **argv) {
  int p;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(W, &p);
  count = (argc > 1 ? atoi(argv[1]) : 8) / (int)sizeof(int);
  if (count < 1) count = 1;
  send = calloc((size_t)count * (size_t)p, sizeof(int));
  recv = calloc((size_t)count * (size_t)p, sizeof(int));
  counts = malloc((size_t)p * sizeof(int));
  displs = malloc((size_t)p * sizeof(int));
  if (!send || !recv || !counts || !displs) MPI_Abort(W, 1);
  for (int i = 0; i < p; i++) counts[i] = count, displs[i] = i * count;
  /* The first cz_ calls take the checking path (and make the private
   * duplicate): once each before the loops. */
  cz_bcast(send, count, MPI_INT, 0, W);
  cz_alltoall(send, count, MPI_INT, recv, count, MPI_INT, W);
  cz_allgather(send, count, MPI_INT, recv, count, MPI_INT, W);
  cz_allreduce(send, recv, count, MPI_INT, MPI_SUM, W);
  cz_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, W);
  run_mpi_bcast(), run_cz_bcast();
  run_mpi_alltoall(), run_cz_alltoall();
  run_mpi_allgather(), run_cz_allgather();
  run_mpi_allreduce(), run_cz_allreduce();
  run_mpi_alltoallv(), run_cz_alltoallv();
  run_end();
  MPI_Finalize();
  return 0;
}
