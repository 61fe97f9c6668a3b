/* allgather_ring_consumed.c: every rank's block goes once around a ring by
 * MPI_Sendrecv into one temporary buffer, is copied into the block to pass
 * on, and is consumed as it arrives: each rank counts how many elements of
 * all blocks are smaller than each of its own (a rank computation). The
 * data of an allgather, but no rank keeps the blocks and nothing combines
 * them into one result: the trace cannot tell this from a ring allreduce
 * that adds each block into a sum. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 6 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[N], passing[N], tmp[N], smaller[N] = {0};
  for (int i = 0; i < N; i++) mine[i] = (me * 37 + i * 11) % 101;
  memcpy(passing, mine, sizeof passing);
  int succ = (me + 1) % p, pred = (me + p - 1) % p;
  for (int round = 0; round < p; round++) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) smaller[i] += passing[j] < mine[i];
    if (round < p - 1) {
      MPI_Sendrecv(passing, N, MPI_INT, succ, 0, tmp, N, MPI_INT, pred, MPI_ANY_TAG,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      memcpy(passing, tmp, sizeof tmp);
    }
  }
  if (me == 0) printf("allgather_ring_consumed: rank of first element %d\n", smaller[0]);
  MPI_Finalize();
  return 0;
}
