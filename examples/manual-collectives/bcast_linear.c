/* bcast_linear.c: the root sends the buffer to every other rank in turn
 * (the hand-made broadcast many codes start with). Between, every rank
 * exchanges unrelated data with its neighbour (noise the detector must
 * ignore). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, root = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double data[64];
  for (int iter = 0; iter < 3; iter++) {
    if (me == root) {
      for (int i = 0; i < 64; i++) data[i] = iter * 100.0 + i;
      for (int q = 0; q < p; q++)
        if (q != root) MPI_Send(data, 64, MPI_DOUBLE, q, 7, MPI_COMM_WORLD);
    } else {
      MPI_Recv(data, 64, MPI_DOUBLE, root, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    int noise = me * 1000 + iter, got;
    MPI_Sendrecv(&noise, 1, MPI_INT, (me + 1) % p, 9, &got, 1, MPI_INT, (me + p - 1) % p, 9,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (me == 0) printf("bcast_linear: done (%g)\n", data[63]);
  MPI_Finalize();
  return 0;
}
