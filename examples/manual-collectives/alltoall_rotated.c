/* alltoall_rotated.c: a linear alltoall with both buffers in distance
 * order, not rank order. Rank me sends its send block d to rank me-d and
 * receives rank me+d's block into receive block d (nonblocking, all posted
 * at once); the blocks are then read in that order. On rank 0 (and, with
 * the hole past the end, on rank P-1) the receive rotation looks like rank
 * order: those receivers alone look like gathers. Runs twice and checks
 * the result. */
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
  MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
  int bad = 0;
  for (int iter = 0; iter < 2; iter++) {
    /* Send block d is for rank me-d: its content names sender, receiver and iteration. */
    for (int d = 0; d < p; d++)
      for (int j = 0; j < BLOCK; j++)
        out[d * BLOCK + j] = iter * 1000000 + me * 1000 + ((me - d + p) % p) * 10 + j;
    int n = 0;
    for (int d = 1; d < p; d++) {
      MPI_Irecv(in + d * BLOCK, BLOCK, MPI_INT, (me + d) % p, 3, MPI_COMM_WORLD, &rq[n++]);
      MPI_Isend(out + d * BLOCK, BLOCK, MPI_INT, (me - d + p) % p, 3, MPI_COMM_WORLD, &rq[n++]);
    }
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    for (int d = 1; d < p; d++)
      for (int j = 0; j < BLOCK; j++)
        bad += in[d * BLOCK + j] != iter * 1000000 + ((me + d) % p) * 1000 + me * 10 + j;
  }
  if (me == 0) printf("alltoall_rotated: %s\n", bad ? "WRONG" : "done");
  free(out), free(in), free(rq);
  MPI_Finalize();
  return bad != 0;
}
