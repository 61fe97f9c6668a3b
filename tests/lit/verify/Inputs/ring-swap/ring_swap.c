/* ring_swap.c: every rank's counts travel once around a ring; each rank
 * adds every block that arrives into its totals, then swaps its send and
 * receive pointers so the next step passes on what arrived. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 5 };

static void ring_totals(const int *mine, int *totals, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(N * sizeof(int)), *recv = malloc(N * sizeof(int));
  memcpy(totals, mine, N * sizeof(int));
  memcpy(send, mine, N * sizeof(int));
  for (int step = 0; step < p - 1; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 4, recv, N, MPI_INT, (me + p - 1) % p, 4, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) totals[i] += recv[i];
    int *t = send;
    send = recv;
    recv = t;
  }
  free(send);
  free(recv);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, mine[N], totals[N];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  for (int i = 0; i < N; i++) mine[i] = (me + 1) * (i + 2) + me * me;
  ring_totals(mine, totals, MPI_COMM_WORLD);
  printf("rank %d:", me);
  for (int i = 0; i < N; i++) printf(" %d", totals[i]);
  printf("\n");
  MPI_Finalize();
  return 0;
}
