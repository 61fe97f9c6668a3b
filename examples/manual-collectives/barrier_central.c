/* barrier_central.c: everyone reports to rank 0 with a one-byte token,
 * rank 0 answers everyone once all have arrived. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  char token = 'b';
  for (int b = 0; b < 2; b++) {
    if (me == 0) {
      for (int q = 1; q < p; q++)
        MPI_Recv(&token, 1, MPI_CHAR, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int q = 1; q < p; q++) MPI_Send(&token, 1, MPI_CHAR, q, 2, MPI_COMM_WORLD);
    } else {
      MPI_Send(&token, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == 0) printf("barrier_central: done\n");
  MPI_Finalize();
  return 0;
}
