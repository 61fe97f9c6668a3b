/* alltoallv_linear.c: every rank sends rank j a block of (me + j) % 3 + 1
 * values, received into one buffer in rank order at the displacements the
 * counts give (nonblocking receives and sends, completed together): an
 * MPI_Alltoallv over every rank, whatever the process count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *sc = malloc(sizeof(int) * (size_t)p), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = malloc(sizeof(int) * (size_t)p), *rd = malloc(sizeof(int) * (size_t)p);
  for (int j = 0; j < p; j++) sc[j] = (me + j) % 3 + 1, rc[j] = (j + me) % 3 + 1;
  sd[0] = rd[0] = 0;
  for (int j = 1; j < p; j++) sd[j] = sd[j - 1] + sc[j - 1], rd[j] = rd[j - 1] + rc[j - 1];
  double *out = malloc(sizeof(double) * (size_t)(sd[p - 1] + sc[p - 1]));
  double *in = malloc(sizeof(double) * (size_t)(rd[p - 1] + rc[p - 1]));
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < sd[p - 1] + sc[p - 1]; i++) out[i] = iter * 1000 + me * 100 + i + 0.5;
    MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
    int n = 0;
    for (int j = 0; j < p; j++)
      if (j != me) MPI_Irecv(in + rd[j], rc[j], MPI_DOUBLE, j, 3, MPI_COMM_WORLD, &req[n++]);
    for (int j = 0; j < p; j++)
      if (j != me) MPI_Isend(out + sd[j], sc[j], MPI_DOUBLE, j, 3, MPI_COMM_WORLD, &req[n++]);
    for (int i = 0; i < rc[me]; i++) in[rd[me] + i] = out[sd[me] + i];
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(req);
  }
  if (me == 0) printf("alltoallv_linear: done (%g)\n", in[0]);
  free(sc), free(sd), free(rc), free(rd), free(out), free(in);
  MPI_Finalize();
  return 0;
}
