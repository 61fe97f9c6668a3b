/* common.h: the example's helpers; CHECK_MPI wraps a whole MPI call. */
#ifndef COMMON_H
#define COMMON_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_MPI(call)                                                   \
  do {                                                                    \
    if ((call) != MPI_SUCCESS) {                                          \
      fprintf(stderr, "MPI error at %s:%d\n", __FILE__, __LINE__);        \
      MPI_Abort(MPI_COMM_WORLD, 1);                                       \
    }                                                                     \
  } while (0)

void bcast_by_hand(int *buf, int n, int root, MPI_Comm comm);
int ring_sum(int value, MPI_Comm comm);
#endif
