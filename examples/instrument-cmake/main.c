/* main.c: gather squares by hand, then send the total back to each rank. */
#include <stdio.h>
#include <stdlib.h>

#include "gather.h"

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *all = calloc((size_t)size, sizeof *all);
  gather_by_hand(rank * rank, all, 0, MPI_COMM_WORLD);
  int total = 0;
  if (rank == 0) {
    for (int r = 0; r < size; r++) total += all[r];
    for (int r = 1; r < size; r++) SEND_INT(total, r, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&total, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d: total of squares %d\n", rank, total);
  free(all);
  MPI_Finalize();
  return 0;
}
