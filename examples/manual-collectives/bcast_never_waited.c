/* bcast_never_waited.c: a linear broadcast of 8 ints from rank 0 written
 * with MPI_Isend/MPI_Irecv whose requests nobody completes: each handle is
 * overwritten by the next call, an MPI_Barrier stands in for the waits,
 * and the receivers read the buffer afterwards (erroneous MPI that works
 * with small messages, as in course exercises). The receives never pass
 * through MPI_Wait or MPI_Test. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int data[8];
  MPI_Request req;
  for (int i = 0; i < 8; i++) data[i] = me == 0 ? 5 * i + 2 : -1;
  if (me == 0) {
    for (int q = 1; q < p; q++) MPI_Isend(data, 8, MPI_INT, q, 4, MPI_COMM_WORLD, &req);
  } else {
    MPI_Irecv(data, 8, MPI_INT, 0, 4, MPI_COMM_WORLD, &req);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == p - 1) printf("bcast_never_waited: rank %d has %d ... %d\n", me, data[0], data[7]);
  MPI_Finalize();
  return 0;
}
