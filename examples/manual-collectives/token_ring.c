/* token_ring.c (not a collective): a counter travels around the ring
 * twice; every rank adds to it before passing it on. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long token = 0;
  for (int lap = 0; lap < 2; lap++) {
    if (me == 0) {
      token += 1;
      MPI_Send(&token, 1, MPI_LONG, 1 % p, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG, p - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_LONG, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += me;
      MPI_Send(&token, 1, MPI_LONG, (me + 1) % p, 0, MPI_COMM_WORLD);
    }
  }
  if (me == 0) printf("token_ring: done (%ld)\n", token);
  MPI_Finalize();
  return 0;
}
