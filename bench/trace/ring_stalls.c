/* ring_stalls.c: what storing one 88-byte record (the tracer's) costs in a ring of a
 * given size, with a system call before each store as a waiting rank makes
 * (sched_yield), in a shared mapping of a file (as the tracer's ring) or in
 * anonymous memory. On the VM this was written on, stores into a file
 * mapping stall ~50 us now and then, more often the more pages the ring
 * cycles through; the tracer's ring size comes from this (event_log.h).
 *   cz_ring_stalls KIB file|anon STORES [DIR]
 * Prints the stores' percentiles and mean in TSC ticks (x86) or ns, and
 * how many took over 5000 of them. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_tick.h"

enum { RECORD_BYTES = 88 }; /* the tracer's event_log.h record */

static int by_value(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[2], "file") != 0 && strcmp(argv[2], "file-populated") != 0 &&
                    strcmp(argv[2], "anon") != 0)) {
    fprintf(stderr, "usage: %s KIB file|file-populated|anon STORES [DIR]\n", argv[0]);
    return 2;
  }
  size_t bytes = (size_t)atol(argv[1]) * 1024;
  int file = strcmp(argv[2], "anon") != 0;
  int populate = strcmp(argv[2], "file-populated") == 0;
  long n = atol(argv[3]);
  if (bytes < RECORD_BYTES || n <= 0) return 2;
  char path[4096] = "";
  unsigned char *ring;
  if (file) {
    snprintf(path, sizeof path, "%s/cz-ring-stalls.XXXXXX", argc > 4 ? argv[4] : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0 || posix_fallocate(fd, 0, (off_t)bytes) != 0) return perror(path), 1;
    ring = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
  } else {
    ring = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }
  if (ring == MAP_FAILED) return perror("mmap"), 1;
  /* Every page present before the stores: written, or (file-populated)
   * faulted in for writing by the kernel as the tracer's ring is. */
#ifdef MADV_POPULATE_WRITE
  if (populate) madvise(ring, bytes, MADV_POPULATE_WRITE);
  else
#endif
    memset(ring, 0, bytes);
  uint32_t *took = malloc(sizeof *took * (size_t)n);
  if (!took) return 1;
  memset(took, 0, sizeof *took * (size_t)n);
  size_t records = bytes / RECORD_BYTES;
  uint64_t sum = 0;
  long slow = 0;
  for (long i = 0; i < n; i++) {
    sched_yield();
    unsigned char *r = ring + (size_t)(i % (long)records) * RECORD_BYTES;
    uint64_t t = bench_tick();
    memset(r, (int)i, 79);
    __atomic_store_n(&r[79], 1, __ATOMIC_RELEASE);
    took[i] = (uint32_t)(bench_tick() - t);
    sum += took[i];
    slow += took[i] > 5000;
  }
  qsort(took, (size_t)n, sizeof *took, by_value);
  printf("%zu KiB %s ring, %ld stores: p50 %u p99 %u p99.9 %u mean %.0f; over 5000: %ld\n",
         bytes / 1024, argv[2], n, took[n / 2], took[n * 99 / 100],
         took[n * 999 / 1000], (double)sum / (double)n, slow);
  if (file) unlink(path);
  return 0;
}
