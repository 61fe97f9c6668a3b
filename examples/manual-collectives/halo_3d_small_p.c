/* halo_3d_small_p.c (not a collective): a 3-D 27-point stencil, periodic,
 * exchanging a face, edge or corner with each of its 26 neighbours. On 4
 * or 8 ranks the process grid is 2 wide in each direction, so every rank is
 * every other rank's neighbour and the exchange reaches all ranks; on 12
 * ranks (3x2x2) it still does, and on 18 or more it does not. The peers come
 * from the process grid, not from a loop over the ranks. */
#include <mpi.h>
#include <stdio.h>

enum { FACE = 6 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, coords[3];
  MPI_Dims_create(p, 3, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid);
  MPI_Cart_coords(grid, me, 3, coords);
  double out[26][FACE], in[26][FACE], cell = me;
  int nbr[26], n = 0;
  for (int dx = -1; dx <= 1; dx++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dz = -1; dz <= 1; dz++) {
        if (!dx && !dy && !dz) continue;
        int c[3] = {coords[0] + dx, coords[1] + dy, coords[2] + dz};
        MPI_Cart_rank(grid, c, &nbr[n++]);
      }
  for (int step = 0; step < 2; step++) {
    MPI_Request req[52];
    for (int k = 0; k < 26; k++) {
      for (int i = 0; i < FACE; i++) out[k][i] = cell + 0.01 * k + 0.0001 * i + step;
      MPI_Irecv(in[k], FACE, MPI_DOUBLE, nbr[k], 25 - k, grid, &req[k]);
    }
    for (int k = 0; k < 26; k++)
      MPI_Isend(out[k], FACE, MPI_DOUBLE, nbr[k], k, grid, &req[26 + k]);
    MPI_Waitall(52, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 26; k++) cell += in[k][0] / 1000;
  }
  if (me == 0) printf("halo_3d_small_p: done (%g)\n", cell);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
