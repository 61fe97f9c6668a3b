/* send_work_placement.c: where a blocking send's bookkeeping costs a
 * ping-pong least, untraced. Each rank does W ns of busy work per send,
 * either just before the send (on the message's way: the reply waits for
 * it) or just after the send returned (the tracer's "recorded after the
 * post", tracer.h, CZT_AFTER_POST_BYTES), or none; the three are
 * interleaved in rounds of one launch, so they share the launch's state.
 * It decides up to which size the tracer records a send after posting it:
 * that pays only where the transport has moved the payload by the time
 * the send returns.
 *
 *   mpirun -n 2 cz_send_work_placement [W_NS] [SIZE ...]
 *
 * Prints per size: bytes, work_ns, none_us, before_us, after_us (medians
 * over the rounds of one round trip's time). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_tick.h"

enum { ROUNDS = 9, ITERS = 5000 };

static double ticks_per_ns = 1.0;

static void busy(double ns) {
  const uint64_t end = bench_tick() + (uint64_t)(ns * ticks_per_ns);
  while (bench_tick() < end) {
  }
}

/* Ticks per ns of bench_tick against MPI_Wtime, over 50 ms. */
static double calibrate(void) {
  const double t0 = MPI_Wtime();
  const uint64_t c0 = bench_tick();
  while (MPI_Wtime() - t0 < 0.05) {
  }
  return (double)(bench_tick() - c0) / ((MPI_Wtime() - t0) * 1e9);
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One round: ITERS round trips; where 0 none, 1 before each send, 2 after. */
static double round_trip_us(char *buf, int n, int me, int where, double work) {
  const int peer = 1 - me;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t = MPI_Wtime();
  for (int i = 0; i < ITERS; i++) {
    if (me == 1) MPI_Recv(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (where == 1) busy(work);
    MPI_Send(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    if (where == 2) busy(work);
    if (me == 0) MPI_Recv(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return (MPI_Wtime() - t) / ITERS * 1e6;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 2) {
    if (me == 0) fprintf(stderr, "send_work_placement: run it with 2 ranks (got %d)\n", p);
    MPI_Finalize();
    return 2;
  }
  const double work = argc > 1 ? atof(argv[1]) : 100.0;
  static const int default_sizes[] = {256, 512, 1024, 2048, 4096, 8192};
  const int n_sizes = argc > 2 ? argc - 2 : (int)(sizeof default_sizes / sizeof *default_sizes);
  ticks_per_ns = calibrate();
  char *buf = malloc(1 << 20);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(buf, 1, 1 << 20);
  if (me == 0) printf("bytes,work_ns,none_us,before_us,after_us\n");
  for (int k = 0; k < n_sizes; k++) {
    const int n = argc > 2 ? atoi(argv[k + 2]) : default_sizes[k];
    if (n < 0 || n > (1 << 20)) continue;
    double us[3][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
      for (int where = 0; where < 3; where++) us[where][r] = round_trip_us(buf, n, me, where, work);
    for (int where = 0; where < 3; where++) qsort(us[where], ROUNDS, sizeof(double), cmp);
    if (me == 0)
      printf("%d,%.0f,%.3f,%.3f,%.3f\n", n, work, us[0][ROUNDS / 2], us[1][ROUNDS / 2],
             us[2][ROUNDS / 2]);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
