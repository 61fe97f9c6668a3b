/* halving.c: a recursive-halving reduce-scatter and Rabenseifner's
 * allreduce (the same halving, then recursive doubling), written the way
 * the rewriter proves them: a range start and length carried from round
 * to round, partners rank ^ mask, the arriving half added into the kept
 * half. Needs a power of two processes. Rank 0 prints every rank's checksum
 * of each result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { B = 5 }; /* elements per block */

static long reduce_scatter_halving(void) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = (me + 1) * (i + 3) % 17;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  long sum = 0;
  for (int i = 0; i < B; i++) sum = sum * 31 + acc[me * B + i];
  free(acc), free(in);
  return sum;
}

static long allreduce_rabenseifner(void) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = (me + 2) * (i + 1) % 13;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 8, in, half * B, MPI_INT, me ^ mask, 8,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  for (int mask = 1; mask < p; mask *= 2) {
    int theirs = (me & mask) ? lo - blocks : lo + blocks;
    MPI_Sendrecv(acc + lo * B, blocks * B, MPI_INT, me ^ mask, 9, acc + theirs * B, blocks * B, MPI_INT,
                 me ^ mask, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    lo = lo < theirs ? lo : theirs, blocks *= 2;
  }
  long sum = 0;
  for (int i = 0; i < B * p; i++) sum = sum * 7 + acc[i];
  free(acc), free(in);
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p & (p - 1)) {
    if (me == 0) fprintf(stderr, "halving: needs a power of two processes\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long mine[2] = {reduce_scatter_halving(), allreduce_rabenseifner()};
  long *all = malloc(sizeof(long) * 2 * (size_t)p);
  MPI_Gather(mine, 2, MPI_LONG, all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  for (int r = 0; r < p && me == 0; r++) printf("rank %d: block %ld, all %ld\n", r, all[2 * r], all[2 * r + 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
