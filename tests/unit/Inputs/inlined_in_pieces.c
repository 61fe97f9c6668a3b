/* inlined_in_pieces.c: a call inside a helper that the compiler inlines in
 * several pieces (built with -O2 -g and AddressSanitizer, whose error paths
 * are moved out of line; clang 14 then describes the inlined helper with a
 * DWARF 5 range list). Prints the file address of the instruction that
 * calls where() from smooth() (its return address minus one; the program is
 * linked without PIE, so no load bias). The symbolizer must name `smooth`
 * and the line marked CALL. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void *where(void) { return __builtin_return_address(0); }

static void *smooth(double *a, int n, int steps) {
  void *at = 0;
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i + 1 < n; i++) a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
    at = where(); /* CALL */
    if (a[n / 2] > 1e300) abort();
  }
  return at;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  double *a = calloc((size_t)n, sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i % 7;
  void *at = smooth(a, n, 3);
  printf("%#lx %d\n", (unsigned long)((char *)at - 1), (int)a[n / 2]);
  free(a);
  return 0;
}
