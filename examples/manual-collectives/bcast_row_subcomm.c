/* bcast_row_subcomm.c: ranks form a grid of rows of 3 (MPI_Comm_split);
 * in each row the first rank broadcasts linearly over the row
 * communicator. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm row;
  MPI_Comm_split(MPI_COMM_WORLD, me / 3, me, &row);
  int r, n;
  MPI_Comm_rank(row, &r);
  MPI_Comm_size(row, &n);
  short v[20];
  if (r == 0)
    for (int i = 0; i < 20; i++) v[i] = (short)(me * 10 + i);
  if (r == 0) {
    for (int q = 1; q < n; q++) MPI_Send(v, 20, MPI_SHORT, q, 0, row);
  } else {
    MPI_Recv(v, 20, MPI_SHORT, 0, 0, row, MPI_STATUS_IGNORE);
  }
  if (me == 0) printf("bcast_row_subcomm: done (%d)\n", v[19]);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
