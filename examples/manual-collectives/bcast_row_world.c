/* bcast_row_world.c: the same row broadcasts as bcast_row_subcomm.c, but
 * written on MPI_COMM_WORLD with world ranks: the rows are subsets the
 * detector must recognise (and name the MPI_Comm_split that makes them). */
#include <mpi.h>
#include <stdio.h>

enum { ROW = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int first = me / ROW * ROW, last = first + ROW < p ? first + ROW : p;
  short v[20];
  for (int iter = 0; iter < 2; iter++) {
    if (me == first) {
      for (int i = 0; i < 20; i++) v[i] = (short)(iter * 1000 + me * 10 + i);
      for (int q = first + 1; q < last; q++) MPI_Send(v, 20, MPI_SHORT, q, 0, MPI_COMM_WORLD);
    } else {
      MPI_Recv(v, 20, MPI_SHORT, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == 0) printf("bcast_row_world: done (%d)\n", v[19]);
  MPI_Finalize();
  return 0;
}
