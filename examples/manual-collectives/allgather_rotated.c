/* allgather_rotated.c: a linear allgather whose receive buffer is in
 * distance order, not rank order. Every rank sends its own block (work
 * block 0) to every other rank, and receives rank me+d's block into work
 * block d (nonblocking, all posted at once); the blocks are then read in
 * that order. On rank 0 (and, with the hole past the end, on rank P-1) the
 * rotation looks like rank order: those receivers alone look like gathers.
 * Runs twice and checks the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *work = malloc(sizeof(int) * BLOCK * (size_t)p);
  MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
  int bad = 0;
  for (int iter = 0; iter < 2; iter++) {
    for (int j = 0; j < BLOCK; j++) work[j] = iter * 100000 + me * 1000 + j;
    int n = 0;
    for (int d = 1; d < p; d++) {
      MPI_Irecv(work + d * BLOCK, BLOCK, MPI_INT, (me + d) % p, 3, MPI_COMM_WORLD, &rq[n++]);
      MPI_Isend(work, BLOCK, MPI_INT, (me - d + p) % p, 3, MPI_COMM_WORLD, &rq[n++]);
    }
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    for (int d = 0; d < p; d++)
      for (int j = 0; j < BLOCK; j++)
        bad += work[d * BLOCK + j] != iter * 100000 + ((me + d) % p) * 1000 + j;
  }
  if (me == 0) printf("allgather_rotated: %s\n", bad ? "WRONG" : "done");
  free(rq);
  free(work);
  MPI_Finalize();
  return bad != 0;
}
