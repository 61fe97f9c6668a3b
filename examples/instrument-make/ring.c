/* ring.c: a sum passed around a ring with Sendrecv (an allreduce by hand). */
#include "common.h"

/* A whole MPI call written as a macro: instrumented at the macro's use. */
#define SHIFT(out, in, right, left, comm)                                   \
  MPI_Sendrecv(&(out), 1, MPI_INT, right, 3, &(in), 1, MPI_INT, left, 3, comm, \
               MPI_STATUS_IGNORE)

int ring_sum(int value, MPI_Comm comm) {
  int rank, size, sum = value, pass = value, got = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int step = 1; step < size; step++) {
    SHIFT(pass, got, (rank + 1) % size, (rank + size - 1) % size, comm);
    sum += got;
    pass = got;
  }
  return sum;
}
