/* gather_any_source.c: rank 1 collects four ints from every rank. It
 * copies its own block into its slot and receives the others from
 * MPI_ANY_SOURCE into the next free slot, so the slots follow arrival,
 * not rank. The other ranks send one after another, 60 ms apart, so in
 * a normal run the blocks arrive, and lie, in rank order: it looks like
 * MPI_Gather, and is not one (a slow rank 0 would put rank 2's block in
 * slot 0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BLOCK = 4, ROOT = 1 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[BLOCK];
  for (int i = 0; i < BLOCK; i++) mine[i] = 1000 * me + 17 * i + 3;
  int *slots = malloc(sizeof *slots * BLOCK * (size_t)p);
  long sum = 0;
  if (me == ROOT) {
    memcpy(slots + ROOT * BLOCK, mine, sizeof mine);
    for (int k = 0; k < p; k++) {
      if (k == ROOT) continue; /* taken */
      MPI_Recv(slots + k * BLOCK, BLOCK, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  } else {
    usleep(60000u * (unsigned)(me + 1));
    MPI_Send(mine, BLOCK, MPI_INT, ROOT, 9, MPI_COMM_WORLD);
  }
  if (me == ROOT) {
    for (int k = 0; k < p; k++) sum += (long)(k + 1) * slots[k * BLOCK];
    printf("gather_any_source: %ld\n", sum);
  }
  free(slots);
  MPI_Finalize();
  return 0;
}
