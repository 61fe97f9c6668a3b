/* reduce_binomial.c: a binomial-tree sum of one double per rank to rank
 * 0: each rank adds what its children send to its own value, then sends
 * the partial sum to its parent. Twice, with new values. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double total = 0;
  for (int iter = 0; iter < 2; iter++) {
    double sum = 1.5 * me + iter, in;
    for (int mask = 1; mask < p; mask <<= 1) {
      if (me & mask) {
        MPI_Send(&sum, 1, MPI_DOUBLE, me - mask, 6, MPI_COMM_WORLD);
        break;
      }
      if (me + mask < p) {
        MPI_Recv(&in, 1, MPI_DOUBLE, me + mask, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += in;
      }
    }
    total = sum;
  }
  if (me == 0) printf("reduce_binomial: done (%g)\n", total);
  MPI_Finalize();
  return 0;
}
