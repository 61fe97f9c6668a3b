/* alltoall_pairwise.c: in step s every rank exchanges with rank me^s (or
 * me+s / me-s when P is not a power of two): block q of the send array
 * goes to q, block p of the receive array comes from p. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *out = malloc(sizeof(int) * BLOCK * (size_t)p), *in = malloc(sizeof(int) * BLOCK * (size_t)p);
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < BLOCK * p; i++) out[i] = iter * 100000 + me * 1000 + i;
    for (int i = 0; i < BLOCK; i++) in[me * BLOCK + i] = out[me * BLOCK + i];
    for (int s = 1; s < p; s++) {
      int to = (me + s) % p, from = (me - s + p) % p;
      MPI_Sendrecv(out + to * BLOCK, BLOCK, MPI_INT, to, 5, in + from * BLOCK, BLOCK, MPI_INT,
                   from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == 0) printf("alltoall_pairwise: done (%d)\n", in[BLOCK * p - 1]);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
