/* allreduce_recursive_doubling.c (P a power of two): the maximum of two
 * ints per rank; in round k every rank exchanges its current maxima with
 * rank me ^ 2^k and keeps the larger ones. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p & (p - 1)) {
    if (me == 0) fprintf(stderr, "allreduce_recursive_doubling: needs a power of two\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int v[2] = {(me * 37) % 11, 100 - (me * 13) % 7}, in[2];
  for (int dist = 1; dist < p; dist <<= 1) {
    MPI_Sendrecv(v, 2, MPI_INT, me ^ dist, 3, in, 2, MPI_INT, me ^ dist, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 2; i++)
      if (in[i] > v[i]) v[i] = in[i];
  }
  if (me == 0) printf("allreduce_recursive_doubling: done (%d %d)\n", v[0], v[1]);
  MPI_Finalize();
  return 0;
}
