/* ring_bandwidth_loop.c: the shape of a latency and bandwidth benchmark's
 * ring measurements (HPCC's b_eff, bench/realcode/RESULTS.md): each rank
 * repeatedly swaps one buffer, filled once with its own bytes, with its
 * left and right neighbours through MPI_Sendrecv, around the natural ring
 * and around a few rings of shuffled order, and never reads what it
 * received. Over the rings every rank's bytes reach every other rank, so
 * the messages carry an allgather's data, but each block travels to the
 * same ranks again and again: many times the messages any allgather
 * needs. Expected: never a confirmed collective (an allgather, if any, is
 * ambiguous: redundant). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BYTES = 256, REPEATS = 20, RINGS = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  unsigned char *out = malloc(BYTES), *in = malloc(BYTES);
  for (int i = 0; i < BYTES; i++) out[i] = (unsigned char)(me * 31 + i);
  int *order = malloc(sizeof(int) * p);
  double t = 0;
  for (int ring = 0; ring < RINGS; ring++) {
    /* ring 0: natural order; then a shuffle every rank computes alike */
    for (int i = 0; i < p; i++) order[i] = i;
    srand(17 + ring);
    for (int i = p - 1; ring > 0 && i > 0; i--) {
      int j = rand() % (i + 1), x = order[i];
      order[i] = order[j], order[j] = x;
    }
    int at = 0;
    while (order[at] != me) at++;
    int left = order[(at + p - 1) % p], right = order[(at + 1) % p];
    for (int r = 0; r < REPEATS; r++) {
      double t0 = MPI_Wtime();
      MPI_Sendrecv(out, BYTES, MPI_BYTE, right, 1, in, BYTES, MPI_BYTE, left, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      MPI_Sendrecv(out, BYTES, MPI_BYTE, left, 2, in, BYTES, MPI_BYTE, right, 2, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      t += MPI_Wtime() - t0;
    }
  }
  double worst = 0;
  MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me == 0) printf("ring_bandwidth_loop: %d rings of %d ranks measured\n", RINGS, p);
  free(out), free(in), free(order);
  MPI_Finalize();
  return 0;
}
