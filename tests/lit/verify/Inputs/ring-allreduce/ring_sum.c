/* ring_sum.c: every rank's counts travel once around a ring; each rank
 * adds every block that arrives into its totals and passes it on. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 5 };

static void ring_totals(const int *mine, int *totals, MPI_Comm comm) {
  int me, p, pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  memcpy(totals, mine, N * sizeof(int));
  memcpy(pass, mine, sizeof pass);
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 4, in, N, MPI_INT, (me + p - 1) % p, 4, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) totals[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, mine[N], totals[N];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  for (int i = 0; i < N; i++) mine[i] = (me + 1) * (i + 2);
  ring_totals(mine, totals, MPI_COMM_WORLD);
  printf("rank %d:", me);
  for (int i = 0; i < N; i++) printf(" %d", totals[i]);
  printf("\n");
  MPI_Finalize();
  return 0;
}
