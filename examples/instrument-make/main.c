/* main.c: broadcast a vector by hand, then sum the ranks around a ring. */
#include "common.h"

int main(int argc, char **argv) {
  int rank, size, data[4] = {0, 0, 0, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    for (int i = 0; i < 4; i++) data[i] = 10 * (i + 1);
  bcast_by_hand(data, 4, 0, MPI_COMM_WORLD);
  int sum = ring_sum(rank, MPI_COMM_WORLD);
  printf("rank %d: data %d %d %d %d, ring sum %d\n", rank, data[0], data[1], data[2],
         data[3], sum);
  MPI_Finalize();
  return sum == size * (size - 1) / 2 ? 0 : 1;
}
