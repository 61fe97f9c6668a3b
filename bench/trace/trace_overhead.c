/* trace_overhead.c: ping-pong and ring cost with the tracer recording versus
 * paused, interleaved in one run (medians of repetitions). Run it under the
 * tracer (LD_PRELOAD or linked) and once without it for the baseline:
 *   mpirun -n 2 -x LD_PRELOAD=.../libcollectivize_trace.so cz_trace_overhead
 * Prints: size, mode, microseconds per round trip / ring step. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectivize.h"

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double pingpong(char *buf, int n, int iters, int me) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int i = 0; i < iters; i++) {
    if (me == 0) {
      MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == 1) {
      MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t) / iters * 1e6;
}

static double ring(char *s, char *r, int n, int iters, int me, int p) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int i = 0; i < iters; i++)
    MPI_Sendrecv(s, n, MPI_BYTE, (me + 1) % p, 1, r, n, MPI_BYTE,
                 (me + p - 1) % p, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return (MPI_Wtime() - t) / iters * 1e6;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  static const int sizes[] = {8, 1024, 65536, 1 << 20};
  enum { REPS = 7 };
  char *s = malloc(1 << 20), *r = malloc(1 << 20);
  memset(s, 1, 1 << 20);
  if (me == 0) printf("size,mode,pingpong_us,ring_us\n");
  for (int k = 0; k < 4; k++) {
    int n = sizes[k], iters = n >= 65536 ? 200 : 5000;
    double pp[2][REPS], rg[2][REPS];
    for (int rep = 0; rep < REPS; rep++)
      for (int mode = 0; mode < 2; mode++) { /* 0 paused, 1 recording */
        if (mode == 0) cz_trace_pause();
        pp[mode][rep] = pingpong(s, n, iters, me);
        rg[mode][rep] = ring(s, r, n, iters, me, p);
        if (mode == 0) cz_trace_resume();
      }
    for (int mode = 0; mode < 2; mode++) {
      qsort(pp[mode], REPS, sizeof(double), cmp);
      qsort(rg[mode], REPS, sizeof(double), cmp);
      if (me == 0)
        printf("%d,%s,%.2f,%.2f\n", n, mode ? "recording" : "paused",
               pp[mode][REPS / 2], rg[mode][REPS / 2]);
    }
  }
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
