/* copy_alias.c: one process, no MPI: the time to copy n bytes with glibc's
 * memcpy and with the runtime's czi_copy (runtime/src/common/copy.h) when
 * the destination lies d bytes past the source modulo the 4 KiB page, for
 * d = 0..127 and a few larger distances. Shows the distances at which this
 * CPU's `rep movsb` is slow, and what czi_copy pays instead.
 *
 *   cz_copy_alias [bytes,...]     (default 4096,32768,262144)
 *
 * CSV on stdout: bytes,distance,memcpy_ns,czi_copy_ns (minimum of 7 runs of
 * 50 copies each: the copy's own cost, not the machine's noise). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy.h"

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

typedef void (*copy_fn)(void *, const void *, size_t);
static void with_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }

static double best_ns(copy_fn f, char *dst, const char *src, size_t n) {
  double best = 1e300;
  for (int run = 0; run < 7; run++) {
    const double t0 = now_ns();
    for (int i = 0; i < 50; i++) {
      f(dst, src, n);
      __asm__ volatile("" : : "r"(dst) : "memory");
    }
    const double t = (now_ns() - t0) / 50;
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  const char *list = argc > 1 ? argv[1] : "4096,32768,262144";
  char *sizes = strdup(list);
  puts("bytes,distance,memcpy_ns,czi_copy_ns");
  for (char *tok = strtok(sizes, ","); tok; tok = strtok(NULL, ",")) {
    const size_t n = strtoul(tok, NULL, 10);
    char *src = NULL, *dst = NULL;
    if (n == 0 || posix_memalign((void **)&src, 4096, n + 8192) ||
        posix_memalign((void **)&dst, 4096, n + 8192)) {
      fprintf(stderr, "cz_copy_alias: bad size or no memory for '%s'\n", tok);
      return 1;
    }
    memset(src, 1, n + 8192);
    memset(dst, 2, n + 8192);
    static const unsigned far[] = {256, 1024, 2048, 4032, 4088, 4095};
    for (unsigned k = 0; k < 128 + sizeof far / sizeof *far; k++) {
      const unsigned d = k < 128 ? k : far[k - 128];
      printf("%zu,%u,%.0f,%.0f\n", n, d, best_ns(with_memcpy, dst + d, src, n),
             best_ns(czi_copy, dst + d, src, n));
    }
    free(src);
    free(dst);
  }
  free(sizes);
  return 0;
}
