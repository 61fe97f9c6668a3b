/* A broadcast hand-made in a helper function, called in a time-step loop. */
#include <mpi.h>
#include <stdio.h>

static void my_bcast(int *buf, int n, int root, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(buf, n, MPI_INT, q, 11, comm); /* to every other rank */
  } else {
    MPI_Recv(buf, n, MPI_INT, root, 11, comm, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, field[32];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  long check = 0;
  for (int step = 0; step < 3; step++) {
    if (me == 2)
      for (int i = 0; i < 32; i++) field[i] = step * 100 + i;
    my_bcast(field, 32, 2, MPI_COMM_WORLD);
    for (int i = 0; i < 32; i++) check += field[i] * (me + 1);
  }
  printf("rank %d: %ld\n", me, check);
  MPI_Finalize();
  return 0;
}
