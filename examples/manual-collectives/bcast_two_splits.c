/* bcast_two_splits.c: two communicators made by two MPI_Comm_split calls
 * (rows of 3, and even/odd ranks), each with a linear broadcast from its
 * first member. Both kinds of group have the same name ("MPI_Comm_split");
 * the report tells them apart by the line that made them and the color. */
#include <mpi.h>
#include <stdio.h>

static void linear_bcast(int *v, int n, MPI_Comm c) {
  int r, size;
  MPI_Comm_rank(c, &r);
  MPI_Comm_size(c, &size);
  if (r == 0) {
    for (int q = 1; q < size; q++) MPI_Send(v, n, MPI_INT, q, 7, c);
  } else {
    MPI_Recv(v, n, MPI_INT, 0, 7, c, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm row, parity;
  MPI_Comm_split(MPI_COMM_WORLD, me / 3, me, &row);
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &parity);
  int a[16], b[24];
  for (int i = 0; i < 16; i++) a[i] = me * 100 + i;
  for (int i = 0; i < 24; i++) b[i] = me * 1000 + 3 * i;
  linear_bcast(a, 16, row);
  MPI_Barrier(MPI_COMM_WORLD); /* two phases: time windows cut between them */
  linear_bcast(b, 24, parity);
  if (me == 0) printf("bcast_two_splits: done (%d %d)\n", a[15], b[23]);
  MPI_Comm_free(&row);
  MPI_Comm_free(&parity);
  MPI_Finalize();
  return 0;
}
