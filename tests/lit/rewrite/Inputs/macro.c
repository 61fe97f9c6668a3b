/* A gather whose sends are written through a macro. */
#include <mpi.h>
#include <stdio.h>

#define BLOCK 3
#define SEND_MINE(to) MPI_Send(mine, BLOCK, MPI_INT, (to), 5, MPI_COMM_WORLD)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, mine[BLOCK], all[BLOCK * 16];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int i = 0; i < BLOCK; i++) mine[i] = me * 7 + i;
  if (me == 0) {
    for (int i = 0; i < BLOCK; i++) all[i] = mine[i];
    for (int q = 1; q < p; q++)
      MPI_Recv(all + q * BLOCK, BLOCK, MPI_INT, q, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int sum = 0;
    for (int i = 0; i < BLOCK * p; i++) sum += all[i];
    printf("sum %d\n", sum);
  } else {
    SEND_MINE(0);
  }
  MPI_Finalize();
  return 0;
}
