/* writer_mode.c: one message each way between rank 0 and the last rank (a
 * program to trace; writer_mode.sh reads which way the tracer writes its
 * log). */
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, size, mine, theirs = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mine = rank;
  const int peer = size - 1 - rank;
  MPI_Sendrecv(&mine, 1, MPI_INT, peer, 0, &theirs, 1, MPI_INT, peer, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return theirs == peer ? 0 : 1;
}
