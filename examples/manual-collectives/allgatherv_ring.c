/* allgatherv_ring.c: every rank contributes a block of its own length
 * (rank q: q % 3 + 2 values) and ends with all blocks, one after the other
 * in rank order at the displacements the counts give: P-1 steps, in step s
 * every rank passes the block it received in step s-1 (first its own) to
 * its right neighbour. An MPI_Allgatherv over every rank.
 * For the detector's negative tests: `equal` gives every rank 3 values
 * (an MPI_Allgather), `zeros` sends blocks of zeros (no evidence). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  int equal = argc > 1 && strcmp(argv[1], "equal") == 0, zeros = argc > 1 && strcmp(argv[1], "zeros") == 0;
  for (int q = 0; q < p; q++) counts[q] = equal ? 3 : q % 3 + 2;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  long *all = malloc(sizeof(long) * (size_t)(displs[p - 1] + counts[p - 1]));
  for (int i = 0; i < counts[me]; i++) all[displs[me] + i] = zeros ? 0 : me * 1000L + i;
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in],
                 MPI_LONG, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  // Every rank checks every block, so that a rewrite leaving a block at
  // the wrong place shows in the output.
  int wrong = 0;
  for (int q = 0; q < p; q++)
    for (int i = 0; i < counts[q]; i++) wrong += all[displs[q] + i] != (zeros ? 0 : q * 1000L + i);
  if (wrong) fprintf(stderr, "allgatherv_ring: rank %d holds %d wrong values\n", me, wrong);
  if (me == 0) printf("allgatherv_ring: done (%ld)\n", all[displs[p - 1] + counts[p - 1] - 1]);
  free(all), free(counts), free(displs);
  MPI_Finalize();
  return wrong != 0;
}
