/* bcast.c: a broadcast made by hand: the root sends to every other rank. */
#include "common.h"

void bcast_by_hand(int *buf, int n, int root, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank == root) {
    for (int r = 0; r < size; r++)
      if (r != root) CHECK_MPI(MPI_Send(buf, n, MPI_INT, r, 7, comm));
  } else {
    CHECK_MPI(MPI_Recv(buf, n, MPI_INT, root, 7, comm, MPI_STATUS_IGNORE));
  }
}
