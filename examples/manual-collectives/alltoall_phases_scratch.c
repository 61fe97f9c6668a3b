/* alltoall_phases_scratch.c: a phase loop in which, at phase k, a rank
 * packs the block it has for rank me - k into one scratch buffer (a
 * transposed copy), receives rank me + k's block into another and adds it
 * to its place in the result before the next phase: every rank sends every
 * other rank a block of its own, an alltoall, but each block is received
 * into the same place and used at once, so the trace shows no layout, and
 * a receiver that summed the blocks into one place (a reduce_scatter) would
 * send the same messages. The shape of the Parallel Research Kernels'
 * MPI1 transpose (bench/realcode/labels/prk.md). Expected: an ambiguous
 * alltoall (scratch_receive), also fitting reduce_scatter; no patch. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { B = 6, ROUNDS = 3 }; /* a B x B block per pair of ranks */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  /* a: my B rows of a B*p-column matrix; t: my B rows of its transpose. */
  double *a = malloc(sizeof(double) * B * B * p), *t = calloc(B * B * p, sizeof(double));
  double out[B * B], in[B * B];
  for (int i = 0; i < B * B * p; i++) a[i] = me * 1000.0 + i;
  for (int round = 0; round < ROUNDS; round++) {
    for (int k = 1; k < p; k++) {
      int to = (me - k + p) % p, from = (me + k) % p;
      MPI_Request r[2];
      MPI_Irecv(in, B * B, MPI_DOUBLE, from, k, MPI_COMM_WORLD, &r[0]);
      for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) out[j * B + i] = a[i * B * p + to * B + j] + round;
      MPI_Isend(out, B * B, MPI_DOUBLE, to, k, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) t[i * B * p + from * B + j] += in[i * B + j];
    }
  }
  double sum = 0;
  for (int i = 0; i < B * B * p; i++) sum += t[i] * (i % 7 + 1);
  double total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("alltoall_phases_scratch: %.1f\n", total);
  free(a);
  free(t);
  MPI_Finalize();
  return 0;
}
