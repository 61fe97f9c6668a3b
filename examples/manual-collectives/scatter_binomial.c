/* scatter_binomial.c: a binomial-tree scatter from rank 0: each rank
 * receives the run of blocks of its subtree (its own first), keeps its
 * block and forwards the rest in halves. Block q is at position q. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 8 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long *all = malloc(sizeof(long) * BLOCK * (size_t)p);
  if (me == 0)
    for (int i = 0; i < BLOCK * p; i++) all[i] = 1000L * (i / BLOCK) + i % BLOCK + 7;
  int mask = 1;
  while (mask < p && !(me & mask)) mask <<= 1; /* lowest set bit: my parent's distance */
  if (me) {
    int n = me + mask <= p ? mask : p - me;
    MPI_Recv(all + me * BLOCK, n * BLOCK, MPI_LONG, me - mask, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    int child = me + mask;
    if (child < p) {
      int n = child + mask <= p ? mask : p - child;
      MPI_Send(all + child * BLOCK, n * BLOCK, MPI_LONG, child, 0, MPI_COMM_WORLD);
    }
  }
  if (me == p - 1) printf("scatter_binomial: done (%ld)\n", all[me * BLOCK]);
  free(all);
  MPI_Finalize();
  return 0;
}
