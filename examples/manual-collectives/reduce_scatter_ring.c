/* reduce_scatter_ring.c: each rank holds a vector of P blocks and ends
 * with block `rank` of the element-wise sum of every rank's vector, by a
 * ring of P-1 steps: step s sends block (rank - s - 1) mod P of the
 * partial sums to the next rank, and adds the block that arrives from the
 * previous one into its own partial sums. A hand-made
 * MPI_Reduce_scatter_block: each rank's sends leave one block of its
 * vector unsent, its own, and every message carries partial sums.
 * `reduce_scatter_ring zeros` runs the same ring on vectors of zeros,
 * whose messages prove nothing (every one is the same fill). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B = 4 }; /* elements per block */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int zeros = argc > 1 && strcmp(argv[1], "zeros") == 0;
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = zeros ? 0 : me * 100 + i;
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, right, 5, in, B, MPI_INT, left, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = 0;
  for (int i = 0; i < B; i++) check += acc[me * B + i];
  printf("reduce_scatter_ring: rank %d block sum %ld\n", me, check);
  free(acc);
  MPI_Finalize();
  return 0;
}
