/*
 * transpose.c: a distributed matrix transpose, the kernel of parallel FFTs.
 * Each of P ranks owns N/P rows of an N x N matrix; after the transpose it
 * owns N/P rows of the transposed matrix. The exchange is an alltoall, and
 * this program does it twice: once hand-rolled from point-to-point messages
 * (the kind of code Collectivize finds), once with cz_alltoall, and checks
 * that both agree.
 *
 *   mpirun -n 4 ./transpose [N]      (N a multiple of P; default 256 * P)
 */
#include <collectivize.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hand-made alltoall: everyone sends block j to rank j. */
static void manual_alltoall(const double *send, double *recv, int block,
                            MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
  for (int j = 0; j < p; ++j)
    MPI_Irecv(recv + (size_t)j * block, block, MPI_DOUBLE, j, 0, comm,
              &reqs[j]);
  for (int j = 0; j < p; ++j)
    MPI_Isend(send + (size_t)j * block, block, MPI_DOUBLE, j, 0, comm,
              &reqs[p + j]);
  MPI_Waitall(2 * p, reqs, MPI_STATUSES_IGNORE);
  free(reqs);
}

/* Rows [me*rows, (me+1)*rows) of the N x N matrix a(i,j) = i*N + j, laid out
 * so block j (destined to rank j) holds columns [j*rows, (j+1)*rows). */
static void fill_blocks(double *out, int n, int rows, int me, int p) {
  for (int j = 0; j < p; ++j)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < rows; ++c)
        out[((size_t)j * rows + r) * rows + c] =
            (double)(me * rows + r) * n + (double)(j * rows + c);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  return v[n / 2];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = argc > 1 ? atoi(argv[1]) : 256 * p;
  if (n <= 0 || n % p != 0) {
    if (me == 0)
      fprintf(stderr, "transpose: N (%d) must be a positive multiple of the "
                      "number of ranks (%d)\n", n, p);
    MPI_Finalize();
    return 2;
  }
  const int rows = n / p, block = rows * rows;
  double *send = malloc(sizeof(double) * (size_t)p * block);
  double *by_hand = malloc(sizeof(double) * (size_t)p * block);
  double *by_cz = malloc(sizeof(double) * (size_t)p * block);
  fill_blocks(send, n, rows, me, p);

  /* One call of each is noise on a busy machine: time several, interleaved,
   * and report the medians (rank 0's view, after a barrier each). */
  enum { REPS = 9 };
  double hand_us[REPS], cz_us[REPS];
  int rc = MPI_SUCCESS;
  for (int r = 0; r < REPS; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    manual_alltoall(send, by_hand, block, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    int call_rc = cz_alltoall(send, block, MPI_DOUBLE, by_cz, block, MPI_DOUBLE,
                              MPI_COMM_WORLD);
    double t3 = MPI_Wtime();
    if (call_rc != MPI_SUCCESS) rc = call_rc;
    hand_us[r] = (t1 - t0) * 1e6;
    cz_us[r] = (t3 - t2) * 1e6;
  }

  int ok = rc == MPI_SUCCESS &&
           memcmp(by_hand, by_cz, sizeof(double) * (size_t)p * block) == 0;
  /* Block j now holds rows [j*rows, ...) columns [me*rows, ...): check one. */
  ok = ok && by_cz[(size_t)(p - 1) * block] ==
                 (double)((p - 1) * rows) * n + (double)(me * rows);
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  char algorithm[64] = "";
  cz_selected_algorithm(CZ_COLL_ALLTOALL, p, (long long)block * 8, algorithm,
                        sizeof algorithm);
  if (me == 0)
    printf("transpose N=%d P=%d, median of %d: hand-made %.1f us, "
           "cz_alltoall (%s) %.1f us: %s\n", n, p, REPS, median(hand_us, REPS),
           algorithm, median(cz_us, REPS),
           all_ok ? "results agree" : "RESULTS DIFFER");
  if (!all_ok && me == 0 && rc != MPI_SUCCESS)
    fprintf(stderr, "cz_alltoall: %s\n", cz_last_error());
  free(send);
  free(by_hand);
  free(by_cz);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
