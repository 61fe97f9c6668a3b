/* allgather_ring.c: P-1 steps; in step s every rank passes the block it
 * received in step s-1 (first its own) to its right neighbour. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 8 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long *all = malloc(sizeof(long) * BLOCK * (size_t)p);
  for (int i = 0; i < BLOCK; i++) all[me * BLOCK + i] = me * 1000L + i;
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    MPI_Sendrecv(all + out * BLOCK, BLOCK, MPI_LONG, right, 0, all + in * BLOCK, BLOCK,
                 MPI_LONG, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (me == 0) printf("allgather_ring: done (%ld)\n", all[BLOCK * p - 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
