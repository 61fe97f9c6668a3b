/* scatter_gather_padded_rows.c: rank 0 keeps one padded row per rank (ROW
 * ints, of which the first BLOCK are data), sends rank i its row as
 * &rows[i * ROW] and later receives every rank's answer into rows + i *
 * ROW (through a copy of the loop variable, as `int src = i;`). The
 * blocks lie ROW ints apart while each message carries BLOCK: they tile no
 * buffer, so the trace shows no scatter's (gather's) layout; only the
 * buffer expressions, the address the peer chooses, say that each member
 * has a block of its own. MPI_Scatter and MPI_Gather would need the rows
 * packed, or a resized datatype. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 6, ROW = 8 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[BLOCK];
  int *rows = NULL;
  if (me == 0) {
    rows = malloc(sizeof *rows * (size_t)p * ROW);
    for (int k = 0; k < p * ROW; k++) rows[k] = 31 * k + 7;
    for (int i = 1; i < p; i++) MPI_Send(&rows[i * ROW], BLOCK, MPI_INT, i, 3, MPI_COMM_WORLD);
  } else {
    MPI_Recv(mine, BLOCK, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 0; k < BLOCK; k++) mine[k] = 2 * mine[k] + me;
  }
  if (me == 0) {
    for (int i = 1; i < p; i++) {
      int src = i;
      MPI_Recv(rows + i * ROW, BLOCK, MPI_INT, src, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    long sum = 0;
    for (int i = 1; i < p; i++) sum += rows[i * ROW + BLOCK - 1];
    printf("scatter_gather_padded_rows: %ld\n", sum);
    free(rows);
  } else {
    MPI_Send(mine, BLOCK, MPI_INT, 0, 4, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
