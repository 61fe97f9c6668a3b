/* p1_instructions.c: instructions per call of each cz_<coll> beside the MPI
 * call at P = 1, for callgrind (instruction counts do not change with the
 * machine's load, as times do). Every loop is its own function:
 *
 *   mpirun -n 1 valgrind --tool=callgrind --callgrind-out-file=OUT \
 *       build/bench/cz_p1_instructions
 *   callgrind_annotate --inclusive=yes OUT | grep run_
 *
 * and a loop's inclusive count / CALLS is the cost of one call (loop
 * included, the same on both sides). Valgrind 3.19 cannot read the debug
 * information clang 14 writes: run it on a copy of libcollectivize made
 * with `strip -g`, through LD_LIBRARY_PATH. */
#include <mpi.h>

#include "collectivize.h"

enum { CALLS = 10000 };
static int send[8] = {1, 2, 3, 4, 5, 6, 7, 8}, recv[8], counts[1] = {2},
           displs[1] = {0};
#define LOOP(name, call)                                      \
  static __attribute__((noinline)) void name(void) {          \
    for (int i = 0; i < CALLS; i++) call;                     \
  }
LOOP(run_mpi_bcast, MPI_Bcast(send, 2, MPI_INT, 0, MPI_COMM_WORLD))
LOOP(run_cz_bcast, cz_bcast(send, 2, MPI_INT, 0, MPI_COMM_WORLD))
LOOP(run_mpi_alltoall,
     MPI_Alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD))
LOOP(run_cz_alltoall,
     cz_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD))
LOOP(run_mpi_allreduce,
     MPI_Allreduce(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD))
LOOP(run_cz_allreduce,
     cz_allreduce(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD))
LOOP(run_mpi_alltoallv, MPI_Alltoallv(send, counts, displs, MPI_INT, recv,
                                      counts, displs, MPI_INT, MPI_COMM_WORLD))
LOOP(run_cz_alltoallv, cz_alltoallv(send, counts, displs, MPI_INT, recv,
                                    counts, displs, MPI_INT, MPI_COMM_WORLD))

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  /* The first cz_ calls take the checking path (and make the private
   * duplicate): once each before the loops. */
  cz_bcast(send, 2, MPI_INT, 0, MPI_COMM_WORLD);
  cz_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD);
  cz_allreduce(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cz_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT,
               MPI_COMM_WORLD);
  run_mpi_bcast(), run_cz_bcast();
  run_mpi_alltoall(), run_cz_alltoall();
  run_mpi_allreduce(), run_cz_allreduce();
  run_mpi_alltoallv(), run_cz_alltoallv();
  MPI_Finalize();
  return 0;
}
