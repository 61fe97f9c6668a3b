/* blocks.h: the program's own wrappers that address block i of n bytes of
 * an array themselves: the caller passes the array and the block's index. */
#ifndef BLOCKS_H
#define BLOCKS_H

#include <stddef.h>
#include <mpi.h>

static inline void send_block(const char *buf, int i, int n, int dest) {
  MPI_Send(buf + (size_t)i * n, n, MPI_BYTE, dest, 0, MPI_COMM_WORLD);
}

static inline void recv_block(char *buf, int i, int n, int src) {
  MPI_Recv(buf + (size_t)i * n, n, MPI_BYTE, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

#endif
