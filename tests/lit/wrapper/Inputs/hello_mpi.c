/* A small MPI program with one call site (the broadcast): what the
 * wrappers link it against. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) value = 42;
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  printf("rank %d: %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
