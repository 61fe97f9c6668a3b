/* reduce_linear_zeros.c: a linear sum to rank 0 whose contributions are all
 * 0.0 (each rank sums a block of values that cancel out): every rank sends
 * its partial sum, and the root receives them in arrival order
 * (MPI_ANY_SOURCE) into one scalar it adds up. Every payload is the same
 * four zero bytes, so the values show neither an operation nor a path. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  float local = 0.0f;
  for (int i = 0; i < 10; i++) local += (i % 2 ? -1.0f : 1.0f) * (float)(me + 1);
  if (me == 0) {
    float s = local, remote;
    for (int q = 1; q < p; q++) {
      MPI_Recv(&remote, 1, MPI_FLOAT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      s += remote;
    }
    printf("reduce_linear_zeros: sum %g\n", s);
  } else {
    MPI_Send(&local, 1, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
