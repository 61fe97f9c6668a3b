/* allreduce_ring.c: the bandwidth-optimal ring allreduce: a ring
 * reduce-scatter (P-1 steps, each adding the block that arrives into the
 * partial sums, after which rank r holds block r of the total) followed
 * by a ring allgather of the total's blocks (P-1 more steps, each passing
 * on the block that arrived). Every rank ends with the whole sum: an
 * allreduce, not a reduce-scatter, although its first half is one. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { B = 4 }; /* elements per block */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) { /* reduce-scatter: rank me ends with block me */
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, right, 6, in, B, MPI_INT, left, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  for (int s = 0; s < p - 1; s++) { /* allgather of the summed blocks */
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, right, 6, acc + got * B, B, MPI_INT, left, 6,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  /* Every element checked: element i is the sum over the ranks r of
   * r * 100 + i. A block in the wrong place or summed twice shows. */
  long check = 0;
  int wrong = 0;
  for (int i = 0; i < B * p; i++) {
    check += acc[i];
    if (acc[i] != 100 * p * (p - 1) / 2 + p * i) wrong++;
  }
  printf("allreduce_ring: rank %d total %ld, %d of %d elements wrong\n", me, check, wrong, B * p);
  free(acc);
  MPI_Finalize();
  return 0;
}
