/* wrapper_patterns.c: two hand-made collectives, a linear broadcast and a
 * linear gather, whose messages all go through the same two wrappers
 * (wrapper_patterns.h). Without call paths both patterns are the same two
 * call sites, the wrappers' lines; with the instrumenter's call paths each
 * is told apart by the lines that call the wrappers. */
#include <stdio.h>
#include <stdlib.h>

#include "wrapper_patterns.h"

enum { BLOCK = 64, STEPS = 3 };

/* The two patterns stay functions of their own, as they would be in other
 * files of a real code: each ends with a wrapper call, which an optimizing
 * compiler makes a jump unless told otherwise (the instrumenting compiler
 * wrappers do). */
#define PATTERN __attribute__((noinline))

/* root sends its buffer to every other rank in turn. */
PATTERN static void broadcast_all(char *buf, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_wrapper(buf, BLOCK, q);
  } else {
    recv_wrapper(buf, BLOCK, root);
  }
}

/* Every rank sends its block to root, which receives block q at position
 * q of its array (its own block it copies: it never travels). */
PATTERN static void gather_to(char *all, const char *mine, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) recv_wrapper(all + (size_t)q * BLOCK, BLOCK, q);
    for (int i = 0; i < BLOCK; i++) all[(size_t)root * BLOCK + i] = mine[i];
  } else {
    send_wrapper(mine, BLOCK, root);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  char *params = malloc(BLOCK), *mine = malloc(BLOCK), *all = malloc((size_t)BLOCK * (size_t)p);
  int root = p > 2 ? 2 : p - 1;
  long sum = 0;
  for (int step = 0; step < STEPS; step++) {
    /* Values that differ by step and by rank: equal payloads prove nothing. */
    for (int i = 0; i < BLOCK; i++) params[i] = (char)(me == 0 ? 7 * step + i : 0);
    broadcast_all(params, me, p, 0);
    for (int i = 0; i < BLOCK; i++) mine[i] = (char)(params[i] + 31 * me + i * i);
    gather_to(all, mine, me, p, root);
    if (me == root)
      for (int i = 0; i < BLOCK * p; i++) sum += all[i];
  }
  if (me == root) printf("wrapper_patterns: done (%ld)\n", sum);
  free(params);
  free(mine);
  free(all);
  MPI_Finalize();
  return 0;
}
