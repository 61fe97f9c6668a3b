/* allreduce_combine_ring.c: every rank's vector travels once around a ring
 * and each rank adds every block into its sum as it arrives, through one
 * receive buffer (the bundled demo's ring, on vectors): an allreduce, not
 * an allgather, since no rank keeps the blocks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 8 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double mine[N], pass[N], in[N], sum[N];
  for (int i = 0; i < N; i++) sum[i] = mine[i] = me * 3.0 + i * 0.5;
  memcpy(pass, mine, sizeof pass);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_DOUBLE, right, 9, in, N, MPI_DOUBLE, left, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  if (me == 0) printf("allreduce_combine_ring: done (%g)\n", sum[N - 1]);
  MPI_Finalize();
  return 0;
}
