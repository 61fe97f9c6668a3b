/* offset_and_count.c: a master hands out columns of a matrix to workers as
 * LLNL's mpi_mm.f does: in one loop it sends each worker its offset (the
 * first column it gets), its column count `cols = dest <= extra ? ave + 1 :
 * ave`, then the columns. When the workers divide N (N = 42 columns: 2, 3,
 * 6 or 7 workers) every count is equal and the counts' messages look like a
 * broadcast; the offsets beside them differ from worker to worker. A
 * Fortran program has no site database to say the count is set per
 * worker; the offsets in the same loop say it in the trace alone. */
#include <mpi.h>
#include <stdio.h>

enum { N = 42, ROWS = 5 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, wrong = 0;
  static double b[N][ROWS];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int workers = p - 1, ave = N / workers, extra = N % workers, offset = 1, cols = 0;
  if (me == 0) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < ROWS; j++) b[i][j] = i * ROWS + j;
    for (int dest = 1; dest <= workers; dest++) {
      cols = dest <= extra ? ave + 1 : ave;
      MPI_Send(&offset, 1, MPI_INT, dest, 1, MPI_COMM_WORLD);
      MPI_Send(&cols, 1, MPI_INT, dest, 1, MPI_COMM_WORLD);
      MPI_Send(&b[offset - 1][0], cols * ROWS, MPI_DOUBLE, dest, 1, MPI_COMM_WORLD);
      offset += cols;
    }
  } else {
    MPI_Recv(&offset, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&cols, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b[0][0], cols * ROWS, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int first = (me - 1) * ave + (me - 1 < extra ? me - 1 : extra);
    wrong = offset != first + 1 || cols != (me <= extra ? ave + 1 : ave) || b[0][0] != first * ROWS;
  }
  int all = 0;
  MPI_Reduce(&wrong, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("offset_and_count: %d workers, %d wrong\n", workers, all);
  MPI_Finalize();
  return 0;
}
