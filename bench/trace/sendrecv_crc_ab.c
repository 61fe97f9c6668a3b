/* sendrecv_crc_ab.c: where the CRC-32 of a large MPI_Sendrecv's send part
 * costs least in a ring (no tracer: the placements the tracer could use,
 * side by side in one run):
 *   plain      MPI_Sendrecv, no hash (the baseline)
 *   overlap    MPI_Irecv + MPI_Isend, hash, MPI_Waitall (what the tracer
 *              does from 16 KiB: wrappers_recv.c)
 *   before     hash, then MPI_Sendrecv
 *   after      MPI_Sendrecv, then hash (the caller still holds the data)
 * Every repetition runs all four, the order reversed every other one; a
 * repetition's time is the slowest rank's mean step. Prints, per variant,
 * the median step time (us) and the median, min and max of its ratio to
 * plain in the same repetition.
 *   mpirun -n 2 cz_sendrecv_crc_ab [BYTES] [STEPS] */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef CZ_BENCH_HAVE_ISAL
#include <isa-l/crc.h>
#else
#include <zlib.h>
#endif

enum { VARIANTS = 4, REPS = 15 };
static const char *const names[VARIANTS] = {"plain", "overlap", "before", "after"};
static volatile uint32_t sink;

static uint32_t crc(const void *buf, int n) {
#ifdef CZ_BENCH_HAVE_ISAL
  return crc32_gzip_refl(0, buf, (uint64_t)n);
#else
  return (uint32_t)crc32_z(0, buf, (z_size_t)n);
#endif
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void step(int v, char *s, char *r, int n, int next, int prev) {
  if (v == 1) {
    MPI_Request q[2];
    MPI_Irecv(r, n, MPI_BYTE, prev, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(s, n, MPI_BYTE, next, 1, MPI_COMM_WORLD, &q[1]);
    sink = crc(s, n);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    return;
  }
  if (v == 2) sink = crc(s, n);
  MPI_Sendrecv(s, n, MPI_BYTE, next, 1, r, n, MPI_BYTE, prev, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  if (v == 3) sink = crc(s, n);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20, steps = argc > 2 ? atoi(argv[2]) : 100;
  char *s = malloc((size_t)n), *r = malloc((size_t)n);
  if (!s || !r || n < 1 || steps < 1) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(s, 1, (size_t)n);
  memset(r, 2, (size_t)n);
  const int next = (me + 1) % p, prev = (me + p - 1) % p;
  double t[VARIANTS][REPS];
  for (int rep = 0; rep < REPS; rep++)
    for (int k = 0; k < VARIANTS; k++) {
      int v = rep % 2 ? VARIANTS - 1 - k : k;
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int i = 0; i < steps; i++) step(v, s, r, n, next, prev);
      double mine = (MPI_Wtime() - t0) / steps * 1e6, worst = 0;
      MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      t[v][rep] = worst;
    }
  if (me == 0) {
    printf("bytes,variant,step_us_median,ratio_median,ratio_min,ratio_max\n");
    for (int v = 0; v < VARIANTS; v++) {
      double ratio[REPS];
      for (int i = 0; i < REPS; i++) ratio[i] = t[v][i] / t[0][i];
      qsort(ratio, REPS, sizeof(double), by_value);
      qsort(t[v], REPS, sizeof(double), by_value);
      printf("%d,%s,%.1f,%.3f,%.3f,%.3f\n", n, names[v], t[v][REPS / 2],
             ratio[REPS / 2], ratio[0], ratio[REPS - 1]);
    }
  }
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
