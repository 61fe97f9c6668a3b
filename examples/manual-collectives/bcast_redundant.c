/* bcast_redundant.c: ranks 0 and 1 both compute the same table; they
 * exchange it anyway (a redundant message), then rank 0 sends it to the
 * others. Either of them could be the broadcast's root: the detector
 * reports both. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int table[50], other[50];
  if (me <= 1)
    for (int i = 0; i < 50; i++) table[i] = i * i;
  if (me <= 1)
    MPI_Sendrecv(table, 50, MPI_INT, 1 - me, 0, other, 50, MPI_INT, 1 - me, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  if (me == 0) {
    for (int q = 2; q < p; q++) MPI_Send(table, 50, MPI_INT, q, 0, MPI_COMM_WORLD);
  } else if (me > 1) {
    MPI_Recv(table, 50, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (me == p - 1) printf("bcast_redundant: done (%d)\n", table[49]);
  MPI_Finalize();
  return 0;
}
