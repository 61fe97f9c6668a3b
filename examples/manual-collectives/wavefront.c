/* wavefront.c (not a collective): a pipelined sweep. For each column
 * block, rank r waits for the boundary computed by rank r-1, computes its
 * own rows from it and passes its last row to rank r+1: equal-sized
 * messages along a chain, each computed from the one before. */
#include <mpi.h>
#include <stdio.h>

enum { W = 4, BLOCKS = 6 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double above[W], row[W];
  for (int b = 0; b < BLOCKS; b++) {
    if (me > 0) MPI_Recv(above, W, MPI_DOUBLE, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      for (int i = 0; i < W; i++) above[i] = b + 0.1 * i;
    for (int i = 0; i < W; i++) row[i] = 0.5 * above[i] + (i ? 0.25 * above[i - 1] : 0) + me;
    if (me < p - 1) MPI_Send(row, W, MPI_DOUBLE, me + 1, 0, MPI_COMM_WORLD);
  }
  if (me == p - 1) printf("wavefront: done (%g)\n", row[W - 1]);
  MPI_Finalize();
  return 0;
}
