/* trace_overhead.c: ping-pong and ring cost with the tracer recording versus
 * paused, interleaved in one run (medians of repetitions). Run it under the
 * tracer (LD_PRELOAD or linked) and once without it for the baseline:
 *   mpirun -n 2 -x LD_PRELOAD=.../libcollectivize_trace.so cz_trace_overhead
 * A third mode, "floor", runs with tracing paused and does inline, with no
 * library in between, the least any tracer of every message and its
 * payload's CRC-32 must add: the sender hashes the payload (with the
 * tracer's CRC code: ISA-L when built with it, else zlib) and each side
 * stores one stamped 88-byte record per message into a ring whose pages
 * are touched in advance, as the tracer's are. Its ratio to the untraced
 * launch is the floor for the traced/untraced goal on this machine for
 * 257 B-16 KiB messages, which the tracer must hash and record between a
 * message's arrival and the reply, as this mode does. Smaller sends it
 * records after posting them, larger ones it hashes while they travel:
 * there it can do better than this mode.
 * Prints: size, mode, microseconds per round trip / ring step. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef CZ_BENCH_HAVE_ISAL
#include <isa-l/crc.h>
#else
#include <zlib.h>
#endif

#include "bench_tick.h"
#include "collectivize.h"

typedef struct {
  uint64_t t, bytes, address, site, caller;
  uint32_t crc, peer, tag, count;
  unsigned char rest[32];
} floor_record;
_Static_assert(sizeof(floor_record) == 88, "the tracer's record size");
/* 5.5 MiB by default, the tracer's ring; CZ_BENCH_FLOOR_RECORDS (a power
 * of two) sets another size, to see what the ring's size costs. */
static unsigned floor_records = 1u << 16;
static floor_record *floor_ring;
static unsigned floor_next;

static uint32_t floor_crc(const void *buf, int n) {
#ifdef CZ_BENCH_HAVE_ISAL
  return crc32_gzip_refl(0, buf, (uint64_t)n);
#else
  return (uint32_t)crc32_z(0, buf, (z_size_t)n);
#endif
}

/* One message's record: hashed for a send, not for a receive (the tracer
 * takes a receive's hash from its matched send). */
static void floor_record_message(const void *buf, int n, int peer, int hash) {
  floor_record *e = &floor_ring[floor_next++ & (floor_records - 1)];
  e->t = bench_tick();
  e->bytes = (uint64_t)n;
  e->address = (uint64_t)(uintptr_t)buf;
  e->crc = hash ? floor_crc(buf, n) : 0;
  e->peer = (uint32_t)peer;
  e->tag = 0;
  e->count = (uint32_t)n;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* floor: the program records each message itself (the floor mode). */
static double pingpong(char *buf, int n, int iters, int me, int floor) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int i = 0; i < iters; i++) {
    if (me == 0) {
      if (floor) floor_record_message(buf, n, 1, 1);
      MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (floor) floor_record_message(buf, n, 1, 0);
    } else if (me == 1) {
      MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (floor) {
        floor_record_message(buf, n, 0, 0);
        floor_record_message(buf, n, 0, 1);
      }
      MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t) / iters * 1e6;
}

static double ring(char *s, char *r, int n, int iters, int me, int p, int floor) {
  const int next = (me + 1) % p, prev = (me + p - 1) % p;
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (int i = 0; i < iters; i++) {
    if (floor) floor_record_message(s, n, next, 1);
    MPI_Sendrecv(s, n, MPI_BYTE, next, 1, r, n, MPI_BYTE, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (floor) floor_record_message(r, n, prev, 0);
  }
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
  const char *fr = getenv("CZ_BENCH_FLOOR_RECORDS");
  if (fr && *fr) {
    unsigned long v = strtoul(fr, NULL, 10);
    if (v == 0 || (v & (v - 1)) != 0 || v > (1ul << 24)) {
      if (me == 0) fprintf(stderr, "CZ_BENCH_FLOOR_RECORDS=%s: give a power of two up to 16777216\n", fr);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    floor_records = (unsigned)v;
  }
  floor_ring = malloc(floor_records * sizeof *floor_ring);
  memset(floor_ring, 0, floor_records * sizeof *floor_ring); /* every page touched now */
  if (me == 0) printf("size,mode,pingpong_us,ring_us\n");
  for (int k = 0; k < 4; k++) {
    int n = sizes[k], iters = n >= 65536 ? 200 : 5000;
    static const char *const modes[] = {"paused", "recording", "floor"};
    double pp[3][REPS], rg[3][REPS];
    for (int rep = 0; rep < REPS; rep++)
      for (int mode = 0; mode < 3; mode++) {
        if (mode != 1) cz_trace_pause();
        pp[mode][rep] = pingpong(s, n, iters, me, mode == 2);
        rg[mode][rep] = ring(s, r, n, iters, me, p, mode == 2);
        if (mode != 1) cz_trace_resume();
      }
    for (int mode = 0; mode < 3; mode++) {
      qsort(pp[mode], REPS, sizeof(double), cmp);
      qsort(rg[mode], REPS, sizeof(double), cmp);
      if (me == 0)
        printf("%d,%s,%.2f,%.2f\n", n, modes[mode], pp[mode][REPS / 2], rg[mode][REPS / 2]);
    }
  }
  free(s);
  free(r);
  free(floor_ring);
  MPI_Finalize();
  return 0;
}
