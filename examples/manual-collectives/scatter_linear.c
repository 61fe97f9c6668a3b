/* scatter_linear.c: the root sends block q of its array to rank q and
 * keeps its own block (declared with cz_send_to_self when built against
 * Collectivize, so the detector sees the kept block). Usage:
 * scatter_linear [pause_ms]: with a pause, every rank meets the others
 * and idles that long between the two scatters (a compute phase: where
 * `detect --window-messages` cuts, however loaded the machine is). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef HAVE_COLLECTIVIZE
#include "collectivize.h"
#endif

enum { BLOCK = 32 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, root = 0;
  const long pauseMs = argc > 1 ? atol(argv[1]) : 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *all = malloc(sizeof(int) * BLOCK * (size_t)p), mine[BLOCK];
  for (int iter = 0; iter < 2; iter++) {
    if (iter > 0 && pauseMs > 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      struct timespec t = {pauseMs / 1000, (pauseMs % 1000) * 1000 * 1000};
      nanosleep(&t, NULL);
    }
    if (me == root) {
      for (int i = 0; i < BLOCK * p; i++) all[i] = iter * 10000 + i;
#ifdef HAVE_COLLECTIVIZE
      cz_send_to_self(all + root * BLOCK, BLOCK, MPI_INT);
#endif
      for (int q = 0; q < p; q++)
        if (q != root) MPI_Send(all + q * BLOCK, BLOCK, MPI_INT, q, 1, MPI_COMM_WORLD);
      for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
    } else {
      MPI_Recv(mine, BLOCK, MPI_INT, root, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == p - 1) printf("scatter_linear: done (%d)\n", mine[BLOCK - 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
