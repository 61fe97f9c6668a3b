/* ring.c: a fixture for site ids (stable-ids.test, plugin.test). Changing
 * this file changes the pinned ids. */
#include <mpi.h>

#define PASS_RIGHT(v, rank, size)                                              \
  MPI_Send(&(v), 1, MPI_INT, ((rank) + 1) % (size), 0, MPI_COMM_WORLD)

int ring(int v) {
  int rank, size, got;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    PASS_RIGHT(v, rank, size);
    MPI_Recv(&got, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&got, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    got += v;
    PASS_RIGHT(got, rank, size);
  }
  return got;
}
