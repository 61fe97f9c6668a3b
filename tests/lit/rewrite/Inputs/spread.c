/* One broadcast whose sends and receives live in two functions, and a
 * flag N the file needs from its build (-DN=...). */
#include <mpi.h>
#include <stdio.h>

static void send_all(double *x, int p) {
  for (int q = 1; q < p; q++) MPI_Send(x, N, MPI_DOUBLE, q, 1, MPI_COMM_WORLD);
}
static void receive(double *x) { MPI_Recv(x, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  double x[N];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int i = 0; i < N; i++) x[i] = me == 0 ? i * 0.25 : 0;
  if (me == 0) send_all(x, p);
  else receive(x);
  printf("rank %d: %g\n", me, x[N - 1]);
  MPI_Finalize();
  return 0;
}
