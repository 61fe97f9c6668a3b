/* wrap.c: the program's own wrappers of MPI_Send and MPI_Recv, in a file
 * of their own (as the BLACS keep BI_Ssend and BI_Srecv). */
#include <mpi.h>

void send_doubles(double *buf, int n, int to, int tag) {
  MPI_Send(buf, n, MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
}

void recv_doubles(double *buf, int n, int from, int tag) {
  MPI_Recv(buf, n, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
