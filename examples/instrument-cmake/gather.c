/* gather.c: every rank sends one int to the root, which receives them in
 * rank order; then the root hands the total back by hand. */
#include "gather.h"

void gather_by_hand(int value, int *all, int root, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != root) {
    SEND_INT(value, root, comm);
    return;
  }
  all[root] = value;
  for (int r = 0; r < size; r++) {
    if (r == root) continue;
    MPI_Recv(&all[r], 1, MPI_INT, r, 11, comm, MPI_STATUS_IGNORE);
  }
}
