/* wrapper_refusals.h: the program's own wrappers of MPI_Send and MPI_Recv
 * that do more than pass their parameters on, so that a collective at
 * their callers would change what the program does (wrapper_refusals.c). */
#ifndef WRAPPER_REFUSALS_H
#define WRAPPER_REFUSALS_H

#include <mpi.h>

/* Messages this rank sent, counted for the final report. */
static long messages_sent;

static inline void send_plain(const void *buf, int n, int dest) {
  MPI_Send(buf, n, MPI_BYTE, dest, 0, MPI_COMM_WORLD);
}

/* The block size is the wrapper's own: the caller never names it. */
static inline void send_block(const void *buf, int dest) {
  const int bytes = 48;
  MPI_Send(buf, bytes, MPI_BYTE, dest, 0, MPI_COMM_WORLD);
}

static inline void recv_block(void *buf, int src) {
  const int bytes = 48;
  MPI_Recv(buf, bytes, MPI_BYTE, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Counts what it sends: a collective would not. */
static inline void send_counted(const void *buf, int n, int dest) {
  MPI_Send(buf, n, MPI_BYTE, dest, 0, MPI_COMM_WORLD);
  messages_sent++;
}

/* Hands the status to the caller. */
static inline void recv_status(void *buf, int n, int src, MPI_Status *status) {
  MPI_Recv(buf, n, MPI_BYTE, src, 0, MPI_COMM_WORLD, status);
}

/* Returns MPI's error code, which the caller checks. */
static inline int recv_checked(void *buf, int n, int src) {
  return MPI_Recv(buf, n, MPI_BYTE, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

#endif
