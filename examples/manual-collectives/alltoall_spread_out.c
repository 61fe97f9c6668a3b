/* alltoall_spread_out.c: every rank posts all its receives and sends at
 * once, destination me+1, me+2, ... (spread out so no rank is flooded),
 * and waits for all of them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 6 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double *out = malloc(sizeof(double) * BLOCK * (size_t)p);
  double *in = malloc(sizeof(double) * BLOCK * (size_t)p);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
  for (int i = 0; i < BLOCK * p; i++) out[i] = me * 1000.0 + i;
  int n = 0;
  for (int s = 1; s < p; s++) {
    int from = (me - s + p) % p;
    MPI_Irecv(in + from * BLOCK, BLOCK, MPI_DOUBLE, from, 2, MPI_COMM_WORLD, &reqs[n++]);
  }
  for (int s = 1; s < p; s++) {
    int to = (me + s) % p;
    MPI_Isend(out + to * BLOCK, BLOCK, MPI_DOUBLE, to, 2, MPI_COMM_WORLD, &reqs[n++]);
  }
  for (int i = 0; i < BLOCK; i++) in[me * BLOCK + i] = out[me * BLOCK + i];
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  if (me == 0) printf("alltoall_spread_out: done (%g)\n", in[BLOCK * p - 1]);
  free(out);
  free(in);
  free(reqs);
  MPI_Finalize();
  return 0;
}
