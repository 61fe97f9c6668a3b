/* halo_zero_payload.c (not a collective): a 2-D heat stencil on a grid of
 * processes, non-periodic. The field starts at zero and only rank 0 holds
 * a heat source, so for the first steps every boundary a rank sends to its
 * (up to four) neighbours is all zeros: equal payloads that no rank
 * forwards. Each rank receives from its upper and left neighbours before
 * it sends to the lower and right ones, so the zeros seem to travel on. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 8 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int dims[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  int row = me / dims[1], col = me % dims[1];
  int nb[4] = {row > 0 ? me - dims[1] : MPI_PROC_NULL,
               row < dims[0] - 1 ? me + dims[1] : MPI_PROC_NULL,
               col > 0 ? me - 1 : MPI_PROC_NULL,
               col < dims[1] - 1 ? me + 1 : MPI_PROC_NULL};
  double u[N + 2][N + 2], out[4][N], in[4][N];
  memset(u, 0, sizeof u);
  for (int step = 0; step < 4; step++) {
    if (me == 0) u[N / 2][N / 2] = 100.0; /* the source, far from the edges */
    for (int i = 0; i < N; i++) {
      out[0][i] = u[1][i + 1];
      out[1][i] = u[N][i + 1];
      out[2][i] = u[i + 1][1];
      out[3][i] = u[i + 1][N];
    }
    /* Deadlock-free without nonblocking calls: boundaries from the
     * lower-ranked neighbours (up, left) are received before this rank
     * sends its own to the higher-ranked ones (down, right), then the other
     * way round. */
    for (int d = 0; d < 4; d += 2)
      if (nb[d] != MPI_PROC_NULL)
        MPI_Recv(in[d], N, MPI_DOUBLE, nb[d], 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int d = 1; d < 4; d += 2)
      if (nb[d] != MPI_PROC_NULL) MPI_Send(out[d], N, MPI_DOUBLE, nb[d], 7, MPI_COMM_WORLD);
    for (int d = 1; d < 4; d += 2)
      if (nb[d] != MPI_PROC_NULL)
        MPI_Recv(in[d], N, MPI_DOUBLE, nb[d], 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int d = 0; d < 4; d += 2)
      if (nb[d] != MPI_PROC_NULL) MPI_Send(out[d], N, MPI_DOUBLE, nb[d], 8, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) {
      if (nb[0] != MPI_PROC_NULL) u[0][i + 1] = in[0][i];
      if (nb[1] != MPI_PROC_NULL) u[N + 1][i + 1] = in[1][i];
      if (nb[2] != MPI_PROC_NULL) u[i + 1][0] = in[2][i];
      if (nb[3] != MPI_PROC_NULL) u[i + 1][N + 1] = in[3][i];
    }
    double v[N + 2][N + 2];
    memcpy(v, u, sizeof v);
    for (int i = 1; i <= N; i++)
      for (int j = 1; j <= N; j++)
        u[i][j] = 0.25 * (v[i - 1][j] + v[i + 1][j] + v[i][j - 1] + v[i][j + 1]);
  }
  if (me == 0) printf("halo_zero_payload: done (%g)\n", u[1][1]);
  MPI_Finalize();
  return 0;
}
