/* allgather_bruck.c: Bruck's allgather, for any P.
 * Work block 0 is the rank's own block. For k = 1, 2, 4, ... < P the
 * first min(k, P-k) work blocks go to rank me-k, and as many come from
 * rank me+k into work block k onwards; afterwards work block i is rank
 * me+i's block (distance order), copied into the result in rank order.
 * Every message is sent from the buffer the earlier ones arrived in, so
 * messages carry concatenations of blocks; with P = 3 each carries a single
 * block, the own one, and the exchange is a linear rotated allgather.
 * Runs twice and checks the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  size_t bytes = sizeof(int) * BLOCK;
  int *work = malloc(bytes * (size_t)p), *all = malloc(bytes * (size_t)p);
  int bad = 0;
  for (int iter = 0; iter < 2; iter++) {
    for (int j = 0; j < BLOCK; j++) work[j] = iter * 100000 + me * 1000 + j;
    for (int k = 1; k < p; k <<= 1) {
      int n = k < p - k ? k : p - k;
      MPI_Sendrecv(work, n * BLOCK, MPI_INT, (me - k + p) % p, 5, work + k * BLOCK, n * BLOCK,
                   MPI_INT, (me + k) % p, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < p; i++) memcpy(all + ((me + i) % p) * BLOCK, work + i * BLOCK, bytes);
    for (int r = 0; r < p; r++)
      for (int j = 0; j < BLOCK; j++) bad += all[r * BLOCK + j] != iter * 100000 + r * 1000 + j;
  }
  if (me == 0) printf("allgather_bruck: %s\n", bad ? "WRONG" : "done");
  free(all);
  free(work);
  MPI_Finalize();
  return bad != 0;
}
