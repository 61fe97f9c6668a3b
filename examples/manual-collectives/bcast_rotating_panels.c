/* bcast_rotating_panels.c: an LU-style loop. Panel k belongs to rank
 * k % p, which broadcasts it along a ring (each rank forwards it to the
 * next, as HPL's 1ring does); every rank then updates its own data with
 * the panel before the next panel's broadcast. Consecutive broadcasts with
 * rotating roots, received into one panel buffer: broadcasts, not an
 * allgather. */
#include <mpi.h>
#include <stdio.h>

enum { NB = 32, PANELS = 8 };

static void ring_bcast(double *panel, int n, int root, int me, int p, MPI_Comm comm) {
  int next = (me + 1) % p, prev = (me + p - 1) % p;
  if (me != root) MPI_Recv(panel, n, MPI_DOUBLE, prev, 11, comm, MPI_STATUS_IGNORE);
  if (next != root) MPI_Send(panel, n, MPI_DOUBLE, next, 11, comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double panel[NB], a[NB];
  for (int i = 0; i < NB; i++) a[i] = me + 0.5 * i;
  for (int k = 0; k < PANELS; k++) {
    int root = k % p;
    if (me == root)
      for (int i = 0; i < NB; i++) panel[i] = a[i] * (k + 1); /* factorise */
    ring_bcast(panel, NB, root, me, p, MPI_COMM_WORLD);
    for (int i = 0; i < NB; i++) a[i] += 0.001 * panel[(i + k) % NB]; /* update */
  }
  if (me == 0) printf("bcast_rotating_panels: done (%g)\n", a[0]);
  MPI_Finalize();
  return 0;
}
