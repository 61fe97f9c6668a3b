/* A program with one source Clang cannot parse (gnu_bcast.c, a GCC nested
 * function): built with collectivize-cc, its calls there carry no site ids
 * and `collectivize detect` names the file. */
#include <mpi.h>
#include <stdio.h>

int gnu_bcast(int *data, int n);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, data[4] = {0, 0, 0, 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    for (int i = 0; i < 4; i++) data[i] = 10 * (i + 1);
  gnu_bcast(data, 4);
  int sum = 0;
  MPI_Allreduce(&data[0], &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: %d %d %d %d\n", rank, data[0], data[1], data[2], data[3]);
  MPI_Finalize();
  return 0;
}
