/* gather.h: a gather made by hand, and a tracing-friendly send macro. */
#ifndef GATHER_H
#define GATHER_H
#include <mpi.h>

/* A statement-like macro with the call inside: instrumented in its #define
 * when that is in the file being compiled, else recorded only. */
#define SEND_INT(value, to, comm) MPI_Send(&(value), 1, MPI_INT, to, 11, comm)

void gather_by_hand(int value, int *all, int root, MPI_Comm comm);
#endif
