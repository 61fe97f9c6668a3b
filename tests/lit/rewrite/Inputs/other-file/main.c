/* main.c: a linear broadcast from rank 0 through wrappers defined in
 * wrap.c: the rewriter, parsing main.c, cannot see what they do. */
#include <mpi.h>
#include <stdio.h>

void send_doubles(double *buf, int n, int to, int tag);
void recv_doubles(double *buf, int n, int from, int tag);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double v[8], sum = 0;
  for (int round = 0; round < 3; round++) {
    if (me == 0) {
      for (int i = 0; i < 8; i++) v[i] = 100.0 * round + i + 0.5;
      for (int q = 1; q < p; q++) send_doubles(v, 8, q, 3);
    } else {
      recv_doubles(v, 8, 0, 3);
    }
    sum += v[7] * (me + 1);
  }
  double total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("other-file: %.1f\n", total);
  MPI_Finalize();
  return 0;
}
