/* blocks.c: a linear scatter and a linear gather whose wrappers compute
 * the block's address from their parameters (blocks.h). */
#include <stdio.h>
#include <stdlib.h>

#include "blocks.h"

enum { BLOCK = 48, STEPS = 3 };

#define PATTERN __attribute__((noinline))

/* root sends block q of all to rank q and keeps its own. */
PATTERN static void deal(char *all, char *mine, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_block(all, q, BLOCK, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[(size_t)root * BLOCK + i];
  } else {
    recv_block(mine, 0, BLOCK, root);
  }
}

/* Every rank sends its block to root, which keeps block q at position q. */
PATTERN static void collect(char *all, char *mine, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) recv_block(all, q, BLOCK, q);
    for (int i = 0; i < BLOCK; i++) all[(size_t)root * BLOCK + i] = mine[i];
  } else {
    send_block(mine, 0, BLOCK, root);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  char *mine = malloc(BLOCK), *all = malloc((size_t)BLOCK * (size_t)p);
  long sum = 0;
  for (int step = 0; step < STEPS; step++) {
    /* Values that differ by step, rank and block: equal payloads prove nothing. */
    for (int i = 0; i < BLOCK * p; i++) all[i] = (char)(me == 1 ? 5 * step + 3 * i : 0);
    deal(all, mine, me, p, 1);
    for (int i = 0; i < BLOCK; i++) mine[i] = (char)(mine[i] + 11 * me + i);
    collect(all, mine, me, p, p - 1);
    if (me == p - 1)
      for (int i = 0; i < BLOCK * p; i++) sum += all[i] * (i % 7 + 1);
  }
  if (me == p - 1) printf("blocks: done (%ld)\n", sum);
  free(mine);
  free(all);
  MPI_Finalize();
  return 0;
}
