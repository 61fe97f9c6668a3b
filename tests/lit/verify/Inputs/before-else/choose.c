/* choose.c: a linear broadcast that is the statement an `if` runs before
 * its `else` (no braces): the hand-made one when asked for, else
 * MPI_Bcast. verify's probe at the region's end must not separate the
 * `else` from its `if`. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 40, STEPS = 3 };

static void spread(int *data, int me, int p, int manual) {
  if (manual)
    if (me == 0) {
      for (int q = 1; q < p; q++) MPI_Send(data, N, MPI_INT, q, 7, MPI_COMM_WORLD);
    } else {
      MPI_Recv(data, N, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  else
    MPI_Bcast(data, N, MPI_INT, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int manual = getenv("CHOOSE_LIBRARY") == NULL;
  int data[N];
  long sum = 0;
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < N; i++) data[i] = me == 0 ? 13 * step + i * i : -1;
    spread(data, me, p, manual);
    for (int i = 0; i < N; i++) sum += data[i] * (me + 1);
  }
  printf("rank %d: %ld\n", me, sum);
  MPI_Finalize();
  return 0;
}
