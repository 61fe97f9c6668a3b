/* bench_tick.h: the cheap timestamp the tracer benchmarks compare against
 * the tracer's own stores: TSC ticks on x86-64, else monotonic ns. */
#ifndef CZ_BENCH_TICK_H
#define CZ_BENCH_TICK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t bench_tick(void) {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#endif
}

#endif
