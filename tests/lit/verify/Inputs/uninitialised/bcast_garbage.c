/* bcast_garbage.c: a linear broadcast of a buffer the program never fills
 * (as a tutorial that only times broadcasts does): malloc hands back a
 * block that held addresses, which differ from run to run and between
 * two builds. The broadcast still moves the root's bytes to every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void my_bcast(int *data, int count, int root, MPI_Comm comm) {
  int me, size;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  if (me == root) {
    for (int q = 0; q < size; q++)
      if (q != me) MPI_Send(data, count, MPI_INT, q, 0, comm);
  } else {
    MPI_Recv(data, count, MPI_INT, root, 0, comm, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  /* Leave addresses behind in the heap, then take the block again. */
  void **old = malloc(1000 * sizeof(int));
  for (size_t i = 0; i < 1000 * sizeof(int) / sizeof(void *); i++) old[i] = &old[i];
  free(old);
  int *data = malloc(1000 * sizeof(int));
  for (int trial = 0; trial < 3; trial++) my_bcast(data, 1000, 0, MPI_COMM_WORLD);
  if (me == 0) printf("bcast_garbage: done\n");
  free(data);
  MPI_Finalize();
  return 0;
}
