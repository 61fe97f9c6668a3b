/* A linear broadcast written with a GCC nested function, which Clang
 * rejects: the wrapper compiles it unmodified. */
#include <mpi.h>

int gnu_bcast(int *data, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int tag(int r) { return r * 0; }
  if (rank == 0) {
    for (int r = 1; r < size; r++)
      MPI_Send(data, n, MPI_INT, r, tag(r), MPI_COMM_WORLD);
  } else {
    MPI_Recv(data, n, MPI_INT, 0, tag(rank), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return 0;
}
