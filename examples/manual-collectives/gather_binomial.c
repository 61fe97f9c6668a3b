/* gather_binomial.c: a binomial-tree gather to rank 0: each rank collects
 * its subtree's blocks next to its own (block q at position q), then sends
 * the whole run of blocks to its parent in one message. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 12 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  float *all = malloc(sizeof(float) * BLOCK * (size_t)p);
  for (int i = 0; i < BLOCK; i++) all[me * BLOCK + i] = (float)(me * 100 + i);
  int have = 1; /* blocks held, starting at position me */
  for (int mask = 1; mask < p; mask <<= 1) {
    if (me & mask) {
      MPI_Send(all + me * BLOCK, have * BLOCK, MPI_FLOAT, me - mask, 0, MPI_COMM_WORLD);
      break;
    }
    int child = me + mask;
    if (child < p) {
      int n = child + mask <= p ? mask : p - child;
      MPI_Recv(all + child * BLOCK, n * BLOCK, MPI_FLOAT, child, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      have += n;
    }
  }
  if (me == 0) printf("gather_binomial: done (%g)\n", all[BLOCK * p - 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
