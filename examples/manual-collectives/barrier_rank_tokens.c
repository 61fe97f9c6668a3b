/* barrier_rank_tokens.c: a barrier made of one-byte tokens: every rank
 * sends every other rank its own token (its rank, so the tokens differ)
 * and receives one from each into the same char, which nobody reads.
 * Different tokens make it no barrier of equal flags, one receive buffer
 * shows no layout, and no value shows an operation. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  char token = (char)me, got = 0;
  MPI_Request *reqs = malloc(sizeof *reqs * (size_t)p);
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(&token, 1, MPI_CHAR, q, 8, MPI_COMM_WORLD, &reqs[n++]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Recv(&got, 1, MPI_CHAR, q, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  if (me == 0) printf("barrier_rank_tokens: passed\n");
  free(reqs);
  MPI_Finalize();
  return 0;
}
