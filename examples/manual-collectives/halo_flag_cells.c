/* halo_flag_cells.c (not a collective): a ring of cells, each rank owning
 * one 4-byte cell that is occupied (1) or free (0), as in a traffic
 * model. In each step every rank sends its own cell to rank + 1 and takes
 * rank - 1's into a ghost cell, which the model reads. Rank 0 sends first, the others after their receive, so the
 * message a rank sends leaves after the one it received: where two
 * neighbours' cells are both 1, rank - 1's 1 seems to be passed on by the
 * rank, from its own cell, not from the ghost it arrived in. Equal small
 * values by chance, not a broadcast. */
#include <mpi.h>
#include <stdio.h>

#define STEPS 3

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int next = (me + 1) % p, prev = (me + p - 1) % p;
  int cell = me < 2, ghost = -1, moved = 0; /* ranks 0 and 1 start occupied */
  for (int step = 0; step < STEPS; step++) {
    if (me == 0) {
      MPI_Send(&cell, 1, MPI_INT, next, 5, MPI_COMM_WORLD);
      MPI_Recv(&ghost, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&ghost, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&cell, 1, MPI_INT, next, 5, MPI_COMM_WORLD);
    }
    moved += ghost; /* the model reads the neighbour's occupancy */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  printf("halo_flag_cells: rank %d cell %d, %d arrivals\n", me, cell, moved);
  MPI_Finalize();
  return 0;
}
