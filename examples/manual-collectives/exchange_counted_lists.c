/* exchange_counted_lists.c: every rank sends every other rank a count, then
 * that many pairs of doubles, and receives each list into one scratch
 * buffer it sums at once: an alltoallv of counted lists, not a gather,
 * though each receiver alone sees a count and a list from every other
 * rank, as the root of a counted gather does. */
#include <mpi.h>
#include <stdio.h>

enum { MAXPAIRS = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double out[2 * MAXPAIRS], scratch[2 * MAXPAIRS], total = 0;
  for (int i = 0; i < 2 * MAXPAIRS; i++) out[i] = me * 10.0 + i;
  for (int d = 1; d < p; d++) {
    int to = (me + d) % p, from = (me + p - d) % p;
    int n = 1 + (me + to) % 3, m;
    MPI_Sendrecv(&n, 1, MPI_INT, to, 5, &m, 1, MPI_INT, from, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(out, 2 * n, MPI_DOUBLE, to, 6, scratch, 2 * m, MPI_DOUBLE, from, 6,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * m; i++) total += scratch[i];
  }
  if (me == 0) printf("exchange_counted_lists: %g\n", total);
  MPI_Finalize();
  return 0;
}
