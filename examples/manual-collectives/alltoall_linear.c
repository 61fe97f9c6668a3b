/* alltoall_linear.c: every rank posts a receive from and a send to every
 * rank, itself included (block j of the send array to rank j), then waits
 * for all: the loop many codes write, messages to self and all. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 5 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  float *out = malloc(sizeof(float) * BLOCK * (size_t)p);
  float *in = malloc(sizeof(float) * BLOCK * (size_t)p);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
  for (int i = 0; i < BLOCK * p; i++) out[i] = (float)(me * 1000 + i);
  for (int j = 0; j < p; j++)
    MPI_Irecv(in + j * BLOCK, BLOCK, MPI_FLOAT, j, 0, MPI_COMM_WORLD, &reqs[j]);
  for (int j = 0; j < p; j++)
    MPI_Isend(out + j * BLOCK, BLOCK, MPI_FLOAT, j, 0, MPI_COMM_WORLD, &reqs[p + j]);
  MPI_Waitall(2 * p, reqs, MPI_STATUSES_IGNORE);
  if (me == 0) printf("alltoall_linear: done (%g)\n", in[BLOCK * p - 1]);
  free(out);
  free(in);
  free(reqs);
  MPI_Finalize();
  return 0;
}
