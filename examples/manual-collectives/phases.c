/* phases.c: an iterative program with compute phases between its
 * communication phases: each step broadcasts new parameters from rank 0
 * along a binomial tree, computes for a while (a sleep stands for it),
 * then exchanges every rank's result around a ring (an allgather). The
 * idle time between phases is where `collectivize detect
 * --window-messages` cuts a long trace into windows. Usage: phases [steps]
 * (default 8). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void compute(void) {
  struct timespec t = {0, 20 * 1000 * 1000};
  nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int steps = argc > 1 ? atoi(argv[1]) : 8;
  double params[16], *all = malloc(sizeof(double) * 4 * (size_t)p);
  for (int step = 0; step < steps; step++) {
    if (me == 0)
      for (int i = 0; i < 16; i++) params[i] = step * 100.0 + i;
    int mask = 1;
    while (mask < p) { /* the parameters, from the parent */
      if (me & mask) {
        MPI_Recv(params, 16, MPI_DOUBLE, me - mask, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) /* to the children */
      if (me + mask < p) MPI_Send(params, 16, MPI_DOUBLE, me + mask, 1, MPI_COMM_WORLD);
    compute();
    double *mine = all + 4 * me;
    for (int i = 0; i < 4; i++) mine[i] = params[i] * (me + 1) + step;
    /* Ring: in round k, pass on the block that came from me - k. */
    const int right = (me + 1) % p, left = (me - 1 + p) % p;
    for (int k = 0; k < p - 1; k++) {
      const int out = (me - k + p) % p, in = (me - k - 1 + p) % p;
      MPI_Sendrecv(all + 4 * out, 4, MPI_DOUBLE, right, 2, all + 4 * in, 4, MPI_DOUBLE, left, 2,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    compute();
  }
  if (me == 0) printf("phases: %d steps done (%g)\n", steps, all[4 * (p - 1)]);
  free(all);
  MPI_Finalize();
  return 0;
}
