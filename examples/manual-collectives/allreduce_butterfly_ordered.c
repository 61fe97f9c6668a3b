/* allreduce_butterfly_ordered.c (P a power of two): a sum of one int per
 * rank over the butterfly, with blocking calls ordered so that no pair
 * deadlocks: in round k the lower rank of the pair me ^ 2^k sends its
 * partial sum and then receives, the upper one receives first and then
 * sends. Both send the partial sum they held before the round and add
 * what they received afterwards, so the upper rank's message carries
 * nothing of what it has just received (its value lags its receipts by
 * one round). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p & (p - 1)) {
    if (me == 0) fprintf(stderr, "allreduce_butterfly_ordered: needs a power of two\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int partial = 3 * me + 1, other = 0;
  for (int bit = 1; bit < p; bit <<= 1) {
    int peer = me ^ bit;
    if (me < peer) {
      MPI_Send(&partial, 1, MPI_INT, peer, 9, MPI_COMM_WORLD);
      MPI_Recv(&other, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&other, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&partial, 1, MPI_INT, peer, 9, MPI_COMM_WORLD);
    }
    partial += other;
  }
  if (me == 0) printf("allreduce_butterfly_ordered: sum %d\n", partial);
  MPI_Finalize();
  return 0;
}
