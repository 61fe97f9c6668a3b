/* bcast_nested.c: nested broadcasts driven by a token. Rank 0 hands a
 * token to each other rank in turn; whoever holds it broadcasts its own
 * row of data to everyone (linearly). The detector reports both levels:
 * the token's broadcast from rank 0, and one broadcast per token holder
 * (replacing the outer one may change the order of the inner ones: the
 * user decides). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int token = 77, row[12], sum = 0;
  for (int k = 1; k < p; k++) {
    if (me == 0) MPI_Send(&token, 1, MPI_INT, k, 1, MPI_COMM_WORLD);
    if (me == k) {
      MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < 12; i++) row[i] = k * 100 + i;
      for (int q = 0; q < p; q++)
        if (q != k) MPI_Send(row, 12, MPI_INT, q, 2, MPI_COMM_WORLD);
    } else {
      MPI_Recv(row, 12, MPI_INT, k, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    sum += row[11];
  }
  if (me == 0) printf("bcast_nested: done (%d)\n", sum);
  MPI_Finalize();
  return 0;
}
