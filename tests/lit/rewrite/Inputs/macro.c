/* A gather to rank 1 whose sends are written through a macro. (The root
 * sits between the others, so the trace shows its slot.) */
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
  if (me == 1) {
    for (int i = 0; i < BLOCK; i++) all[BLOCK + i] = mine[i];
    for (int q = 0; q < p; q++)
      if (q != 1)
        MPI_Recv(all + q * BLOCK, BLOCK, MPI_INT, q, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int sum = 0;
    for (int i = 0; i < BLOCK * p; i++) sum += all[i];
    printf("sum %d\n", sum);
  } else {
    SEND_MINE(1);
  }
  MPI_Finalize();
  return 0;
}
