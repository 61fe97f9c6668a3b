/* allgatherv_packed.c: every rank contributes a block of its own length
 * (rank q: q + 1 ints, so ranks 0 and 1 send 4 and 8 bytes) from a buffer
 * of its own, and every rank ends with all blocks packed one after the
 * other in rank order (displacement of q: the counts before it). An
 * MPI_Allgatherv, made two ways:
 *   `ring`   : P-1 steps, each rank passes the block it received last
 *              (first its own) to its right neighbour;
 *   `direct` : P-1 steps, in step s a rank sends its block to rank + s and
 *              receives rank - s's.
 * `direct same` gives ranks q % 2 + 1 ints of the same values (rank 0's
 * block equals rank 2's): small blocks that repeat prove nothing. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int ring = argc > 1 && strcmp(argv[1], "ring") == 0;
  int same = argc > 2 && strcmp(argv[2], "same") == 0;
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  for (int q = 0; q < p; q++) counts[q] = same ? q % 2 + 1 : q + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  int *mine = malloc(sizeof(int) * (size_t)counts[me]);
  int *all = malloc(sizeof(int) * (size_t)(displs[p - 1] + counts[p - 1]));
  for (int i = 0; i < counts[me]; i++) mine[i] = same ? i + 7 : me * 1000 + i + 7;
  memcpy(all + displs[me], mine, sizeof(int) * (size_t)counts[me]);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    if (ring) {
      int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
      MPI_Sendrecv(all + displs[out], counts[out], MPI_INT, right, 3, all + displs[in], counts[in],
                   MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      int to = (me + s + 1) % p, from = (me - s - 1 + p) % p;
      MPI_Sendrecv(mine, counts[me], MPI_INT, to, 3, all + displs[from], counts[from], MPI_INT, from, 3,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  int wrong = 0;
  for (int q = 0; q < p; q++)
    for (int i = 0; i < counts[q]; i++) wrong += all[displs[q] + i] != (same ? i + 7 : q * 1000 + i + 7);
  if (wrong) fprintf(stderr, "allgatherv_packed: rank %d holds %d wrong values\n", me, wrong);
  if (me == 0) printf("allgatherv_packed: done (%d)\n", all[displs[p - 1] + counts[p - 1] - 1]);
  free(all), free(mine), free(counts), free(displs);
  MPI_Finalize();
  return wrong != 0;
}
