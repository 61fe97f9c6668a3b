/* An allreduce (MPI_MAX) of every rank's elapsed time, built the way
 * benchmark codes combine their timers: a binomial reduce to rank 0, then
 * a binomial bcast of the result from rank 0, both through one variable.
 *
 * Which rank is slowest varies from run to run (here: the seed, first
 * argument, default 1, picks the rank that works longest). When it is the
 * last rank of the tree's upper half or its child (ranks 2 and 3 of 4),
 * rank 2 passes on in the bcast exactly the value it sent up in the
 * reduce: that send alone fits MIN as well as MAX. The ranks' first sends
 * still rule MIN out (rank 2 sent a maximum above what rank 3 gave it;
 * rank 0 released more than rank 1 had sent), so the answer must be the
 * same in every run: a confirmed allreduce with MPI_MAX.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void reduce_max_to_zero(double *t, int rank, int size) {
  for (int mask = 1; mask < size; mask <<= 1) {
    if (rank & mask) {
      MPI_Send(t, 1, MPI_DOUBLE, rank - mask, 0, MPI_COMM_WORLD);
      return;
    }
    if (rank + mask < size) {
      double other;
      MPI_Recv(&other, 1, MPI_DOUBLE, rank + mask, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (other > *t) *t = other;
    }
  }
}

static void bcast_from_zero(double *t, int rank, int size) {
  int mask = 1;
  while (mask < size) mask <<= 1;
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (rank % (2 * mask) == 0 && rank + mask < size)
      MPI_Send(t, 1, MPI_DOUBLE, rank + mask, 0, MPI_COMM_WORLD);
    else if (rank % (2 * mask) == mask)
      MPI_Recv(t, 1, MPI_DOUBLE, rank - mask, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int seed = argc > 1 ? atoi(argv[1]) : 1;
  int slowest = (seed > 0 ? seed - 1 : 0) % size;

  double start = MPI_Wtime();
  usleep(rank == slowest ? 30000 : 2000 + 1000 * (useconds_t)rank); /* the rank's "work" */
  double elapsed = MPI_Wtime() - start;

  reduce_max_to_zero(&elapsed, rank, size);
  bcast_from_zero(&elapsed, rank, size);
  if (rank == 0) printf("slowest rank took %.3f s\n", elapsed);
  MPI_Finalize();
  return 0;
}
