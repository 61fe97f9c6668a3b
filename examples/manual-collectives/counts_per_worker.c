/* counts_per_worker.c: a master hands out rows of a matrix to workers, the
 * way tutorial codes do (LLNL's mpi_mm): for each worker it computes the
 * worker's row count in the loop, `rows = dest <= extra ? ave + 1 : ave`,
 * and sends it, then the rows. Before, it sends every worker the column
 * count `cols`, set once before the loop: that one is a broadcast. When the
 * workers divide N (N = 60 rows: 2, 3, 4, 5, 6 workers), every row count
 * is equal and the counts' messages look like a broadcast too; at another
 * process count they differ. The program checks what each worker got. */
#include <mpi.h>
#include <stdio.h>

enum { N = 60, COLS = 7 };

/* Away from the stack's rows: two adjacent counts sent one after the other
 * read as two pieces of one buffer. */
static int cols;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, rows = 0, wrong = 0;
  double a[N][COLS];
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int workers = p - 1, ave = N / workers, extra = N % workers;
  for (int iter = 0; iter < 2; iter++) {
    if (me == 0) {
      for (int i = 0; i < N; i++)
        for (int j = 0; j < COLS; j++) a[i][j] = iter * 1000 + i * COLS + j;
      cols = COLS - iter;
      for (int dest = 1; dest <= workers; dest++) MPI_Send(&cols, 1, MPI_INT, dest, 2, MPI_COMM_WORLD);
      int offset = 0;
      for (int dest = 1; dest <= workers; dest++) {
        rows = (dest <= extra) ? ave + 1 : ave;
        MPI_Send(&rows, 1, MPI_INT, dest, 1, MPI_COMM_WORLD);
        MPI_Send(&a[offset][0], rows * COLS, MPI_DOUBLE, dest, 3, MPI_COMM_WORLD);
        offset = offset + rows;
      }
    } else {
      MPI_Recv(&cols, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&rows, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&a[0][0], rows * COLS, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int first = (me - 1) * ave + (me - 1 < extra ? me - 1 : extra);
      wrong += rows != ((me <= extra) ? ave + 1 : ave) || cols != COLS - iter ||
               a[0][0] != iter * 1000 + first * COLS;
    }
  }
  int all = 0;
  MPI_Reduce(&wrong, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("counts_per_worker: %d workers, %d wrong\n", workers, all);
  MPI_Finalize();
  return 0;
}
