/* far_cores.c: where the host has put this VM's first two CPUs, second by
 * second, and what it does to a block handed from one core to the other.
 * Two threads pinned to CPUs 0 and 1 (no MPI):
 *  - round_trip_ns: a flag bounced between them (one cache line's round
 *    trip; 63-90 ns with the cores near, 310-340 ns far, on this VM);
 *  - round_trip_min_ns: the same, the fastest of 50 windows of 1000 round
 *    trips: on a loaded machine a window where both threads ran at once
 *    (the mean then counts the times either waited for a CPU);
 *  - cached_us / streaming_us: CPU 0 writes a block of the given size into
 *    a shared buffer, with czi_copy (stays in its cache) or
 *    czi_copy_streaming (non-temporal stores, runtime/src/common/copy.h),
 *    raises the flag, CPU 1 copies the block out and answers: the handover
 *    the shared-memory collectives make every round.
 *
 *   cz_far_cores [seconds (20)] [bytes,... (32768,262144)]
 *
 * CSV on stdout: second,bytes,round_trip_ns,cached_us,streaming_us,
 * round_trip_min_ns. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy.h"

enum { MAX_BYTES = 1 << 20 };
static _Atomic long flag __attribute__((aligned(64)));
static _Atomic int reader_copies, quit;
static _Atomic size_t block;
static char shared_buf[MAX_BYTES] __attribute__((aligned(4096)));
static char source[MAX_BYTES] __attribute__((aligned(4096)));
static char sink[MAX_BYTES] __attribute__((aligned(4096)));

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* CPU 1: wait for an odd value, copy the block out if asked, answer. */
static void *reader(void *unused) {
  (void)unused;
  if (pin(1)) fprintf(stderr, "cz_far_cores: cannot pin to CPU 1\n");
  for (long v = 1;; v += 2) {
    long seen;
    while ((seen = atomic_load(&flag)) != v)
      if (atomic_load(&quit)) return NULL;
    if (atomic_load(&reader_copies)) {
      memcpy(sink, shared_buf, atomic_load(&block));
      __asm__ volatile("" : : "r"(sink) : "memory");
    }
    atomic_store(&flag, v + 1);
  }
}

static long turn; /* the writer's last even value */
static void handover(void) {
  atomic_store(&flag, turn + 1);
  while (atomic_load(&flag) != turn + 2) {
  }
  turn += 2;
}

int main(int argc, char **argv) {
  const int seconds = argc > 1 ? atoi(argv[1]) : 20;
  char *sizes = strdup(argc > 2 ? argv[2] : "32768,262144");
  size_t list[16];
  int n = 0;
  for (char *tok = strtok(sizes, ","); tok && n < 16; tok = strtok(NULL, ",")) {
    list[n] = strtoul(tok, NULL, 10);
    if (list[n] == 0 || list[n] > MAX_BYTES) {
      fprintf(stderr, "cz_far_cores: size '%s' not in 1..%d\n", tok, MAX_BYTES);
      return 1;
    }
    n++;
  }
  if (pin(0)) fprintf(stderr, "cz_far_cores: cannot pin to CPU 0\n");
  memset(source, 7, sizeof source);
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  puts("second,bytes,round_trip_ns,cached_us,streaming_us,round_trip_min_ns");
  const double start = now_s();
  for (int s = 0; s < seconds; s++) {
    atomic_store(&reader_copies, 0);
    double t0 = now_s(), rt_min = 1e30;
    for (int w = 0; w < 50; w++) {
      const double tw = now_s();
      for (int i = 0; i < 1000; i++) handover();
      const double ns = (now_s() - tw) / 1000 * 1e9;
      if (ns < rt_min) rt_min = ns;
    }
    const double rt = (now_s() - t0) / 50000 * 1e9;
    for (int k = 0; k < n; k++) {
      double us[2];
      atomic_store(&block, list[k]);
      atomic_store(&reader_copies, 1);
      for (int streaming = 0; streaming < 2; streaming++) {
        t0 = now_s();
        for (int i = 0; i < 100; i++) {
          source[i] = (char)i; /* a block the writer just computed */
          if (streaming)
            czi_copy_streaming(shared_buf, source, list[k]);
          else
            czi_copy(shared_buf, source, list[k]);
          handover();
        }
        us[streaming] = (now_s() - t0) / 100 * 1e6;
      }
      printf("%d,%zu,%.0f,%.1f,%.1f,%.0f\n", s, list[k], rt, us[0], us[1], rt_min);
    }
    fflush(stdout);
    while (now_s() - start < s + 1) {
    }
  }
  atomic_store(&quit, 1);
  pthread_join(t, NULL);
  free(sizes);
  return 0;
}
