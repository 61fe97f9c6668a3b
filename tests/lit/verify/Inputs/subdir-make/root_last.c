/* root_last.c: the last rank broadcasts a table to the others; which rank
 * that is depends on the process count. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int root = p - 1, table[8];
  for (int i = 0; i < 8; i++) table[i] = me == root ? 10 * i + 1 : -1;
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(table, 8, MPI_INT, q, 3, MPI_COMM_WORLD);
  } else {
    MPI_Recv(table, 8, MPI_INT, root, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  long sum = 0;
  for (int i = 0; i < 8; i++) sum += table[i];
  printf("rank %d: %ld\n", me, sum);
  MPI_Finalize();
  return 0;
}
