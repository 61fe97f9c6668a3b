/* params_then_sum.c: the shape of a textbook integration program. Rank 0
 * reads two endpoints and a count (here made from the command line), sends
 * each worker all three in one loop (three messages per worker, from three
 * adjacent variables), every rank integrates its own piece, and rank 0
 * receives the pieces one by one into one scalar it adds up. So: three
 * broadcasts from one loop, then a reduce (sum) whose result no message
 * carries. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void get_input(int me, int p, double *a, double *b, int *n, int argc, char **argv) {
  if (me == 0) {
    *a = argc > 1 ? atof(argv[1]) : 0.25;
    *b = argc > 2 ? atof(argv[2]) : 3.5;
    *n = argc > 3 ? atoi(argv[3]) : 1024;
    for (int q = 1; q < p; q++) {
      MPI_Send(a, 1, MPI_DOUBLE, q, 0, MPI_COMM_WORLD);
      MPI_Send(b, 1, MPI_DOUBLE, q, 0, MPI_COMM_WORLD);
      MPI_Send(n, 1, MPI_INT, q, 0, MPI_COMM_WORLD);
    }
  } else {
    MPI_Recv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(n, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static double piece(double left, double right, int n) {
  double h = (right - left) / n, s = (left * left + right * right) / 2;
  for (int i = 1; i < n; i++) s += (left + i * h) * (left + i * h);
  return s * h;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double a, b;
  int n;
  get_input(me, p, &a, &b, &n, argc, argv);
  double width = (b - a) / p;
  double mine = piece(a + me * width, a + (me + 1) * width, n / p);
  if (me == 0) {
    double total = mine;
    for (int q = 1; q < p; q++) {
      MPI_Recv(&mine, 1, MPI_DOUBLE, q, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      total += mine;
    }
    printf("params_then_sum: integral of x^2 over [%g, %g] = %.12f\n", a, b, total);
  } else {
    MPI_Send(&mine, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
