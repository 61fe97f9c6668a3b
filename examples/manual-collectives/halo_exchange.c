/* halo_exchange.c (not a collective): each rank of a 1-D ring sends its
 * boundary values to both neighbours every step. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double u[10], ghost_l, ghost_r;
  for (int i = 0; i < 10; i++) u[i] = me + i * 0.1;
  int left = (me + p - 1) % p, right = (me + 1) % p;
  for (int step = 0; step < 3; step++) {
    MPI_Sendrecv(&u[9], 1, MPI_DOUBLE, right, 0, &ghost_l, 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[0], 1, MPI_DOUBLE, left, 1, &ghost_r, 1, MPI_DOUBLE, right, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 10; i++) u[i] = (u[i] + ghost_l + ghost_r) / 3 + step;
  }
  if (me == 0) printf("halo_exchange: done (%g)\n", u[0]);
  MPI_Finalize();
  return 0;
}
