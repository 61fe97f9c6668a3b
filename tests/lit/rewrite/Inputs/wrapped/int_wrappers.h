/* The program's own wrappers of MPI_Send and MPI_Recv, in a header: their
   callers are in other files (rewrite/wrapper-stale-caller.c). */
#include <mpi.h>

static inline void send_int(const int *buf, int n, int to) { MPI_Send(buf, n, MPI_INT, to, 0, MPI_COMM_WORLD); }
static inline void recv_int(int *buf, int n, int from) { MPI_Recv(buf, n, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
