/* mixed_main.c (with mixed_bcast.f90): one program, MPI calls from C and
 * from Fortran. C gathers each rank's block to rank 0 by hand, then calls
 * the Fortran subroutine that broadcasts a table from rank 0 by hand. */
#include <mpi.h>
#include <stdio.h>

void fortran_bcast(int *table, int *n); /* mixed_bcast.f90, bind(c) */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[4], all[64 * 4], table[16], n = 16;
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 4; i++) mine[i] = 100 * round + 10 * me + i;
    if (me == 0) {
      for (int i = 0; i < 4; i++) all[i] = mine[i];
      for (int q = 1; q < p; q++)
        MPI_Recv(all + 4 * q, 4, MPI_INT, q, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* C-RECV */
    } else {
      MPI_Send(mine, 4, MPI_INT, 0, 5, MPI_COMM_WORLD); /* C-SEND */
    }
    for (int i = 0; i < n; i++) table[i] = me == 0 ? 7 * round + i : -1;
    fortran_bcast(table, &n);
    if (me == 0) printf("round %d: gathered %d .. %d\n", round, all[0], all[4 * p - 1]);
    printf("rank %d round %d: table %d .. %d\n", me, round, table[0], table[n - 1]);
  }
  MPI_Finalize();
  return 0;
}
