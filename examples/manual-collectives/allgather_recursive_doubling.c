/* allgather_recursive_doubling.c (P a power of two): in step k every rank
 * exchanges everything it has so far (2^k blocks, contiguous in the
 * result array) with rank me ^ 2^k, so messages carry concatenations. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 10 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p & (p - 1)) {
    if (me == 0) fprintf(stderr, "allgather_recursive_doubling: needs a power of two\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int *all = malloc(sizeof(int) * BLOCK * (size_t)p);
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < BLOCK; i++) all[me * BLOCK + i] = iter * 100000 + me * 100 + i;
    for (int dist = 1; dist < p; dist <<= 1) {
      int partner = me ^ dist;
      int mine = me / dist * dist, theirs = partner / dist * dist; /* first block held */
      MPI_Sendrecv(all + mine * BLOCK, dist * BLOCK, MPI_INT, partner, 0, all + theirs * BLOCK,
                   dist * BLOCK, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == 0) printf("allgather_recursive_doubling: done (%d)\n", all[BLOCK * p - 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
