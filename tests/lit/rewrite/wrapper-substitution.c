// Wrapper arguments computed from the wrapper's parameters are written at
// the caller with each parameter replaced by the caller's argument
// (parenthesised unless it is a name or a constant): `send_block(all, q,
// BLOCK, q)` around `MPI_Send(buf + i * n, n, ...)` sends `all + q * BLOCK`.
// `send_at(all, q * BLOCK, q)` around `MPI_Send(base + offset, ...)` sends
// `all + (q * BLOCK)`. Refused, each with its reason: a parameter read
// twice in one argument whose caller's argument is neither a name nor a
// constant, an argument with side effects, a
// wrapper's local, a form not rewritten (`?:`). Hermetic: mock mpi.h, a
// report by hand.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scatter root=0 count=32 lines=41,44 callers=52,55' 'scatter root=0 count=32 lines=42,44 callers=62,65' 'scatter root=0 count=32 lines=44,46 callers=76,73' 'scatter root=0 count=32 lines=41,44 callers=84,87' 'scatter root=0 count=32 lines=43,44 callers=94,97' 'scatter root=0 count=32 lines=44,45 callers=107,104' 'bcast root=0 count=32 lines=44,47 callers=117,115' 'gather root=0 count=32 lines=41,122 callers=129,126' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: FileCheck --match-full-lines --check-prefix=PATCHED %s < %t/prog.c
// CHECK: 01-scatter: proposed prog.c:{{[0-9]+-[0-9]+}} -> MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, world);
// CHECK-NEXT: 02-scatter: proposed prog.c:{{[0-9]+-[0-9]+}} -> MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, world);
// CHECK-NEXT: 03-scatter: none
// CHECK-NEXT: no patch: send_skewed (prog.c:46) computes the buffer of its MPI_Send itself, `buf + i * BLOCK + i` (prog.c:46), it reads its parameter `i` more than once, and the caller's argument is not a name or a constant: it would be evaluated more than once
// CHECK-NEXT: 04-scatter: none
// CHECK-NEXT: no patch: send_block (prog.c:41) computes the buffer of its MPI_Send itself, `buf + i * n` (prog.c:41), the caller's argument for its parameter `i` has side effects: it would not run once per call any more
// CHECK-NEXT: 05-scatter: none
// CHECK-NEXT: no patch: send_block_local (prog.c:43) computes the buffer of its MPI_Send itself, `buf + off` (prog.c:43), from its own variables: the caller cannot name it
// CHECK-NEXT: 06-scatter: none
// CHECK-NEXT: no patch: send_block_or_first (prog.c:45) computes the buffer of its MPI_Send itself, `i > 0 ? buf + i * BLOCK : buf` (prog.c:45), it computes it in a form the rewriter does not write at the caller
// CHECK-NEXT: 07-bcast: review prog.c:{{[0-9]+-[0-9]+}} -> MPI_Bcast(all, 2 * (half + half), MPI_INT, root, world);
// CHECK-NEXT: review: the receives post another count than the 2 * (half + half) the sends pass: the patch uses 2 * (half + half) on every rank
// (08-gather, collect's, and the summary: at the end, lines stay put)
// PATCHED: void send_block(const int *buf, int i, int n, int to) { MPI_Send(buf + i * n, n, MPI_INT, to, 0, world); }
// PATCHED:      void deal(int *all, int *mine, int root, int me, int p) {
// PATCHED-NEXT:   MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, world);
// PATCHED:      void deal_offsets(int *all, int *mine, int root, int me, int p) {
// PATCHED-NEXT:   MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, world);
#include <mpi.h>

enum { BLOCK = 32 };
MPI_Comm world; /* set once by the program: every wrapper's communicator */
int next_block(void);

/* The wrappers. */
void send_block(const int *buf, int i, int n, int to) { MPI_Send(buf + i * n, n, MPI_INT, to, 0, world); }
void send_at(const int *base, int offset, int to) { MPI_Send(base + offset, BLOCK, MPI_INT, to, 0, world); }
void send_block_local(const int *buf, int i, int to) { int off = i * BLOCK; MPI_Send(buf + off, BLOCK, MPI_INT, to, 0, world); }
void recv_block(int *buf, int n, int from) { MPI_Recv(buf, n, MPI_INT, from, 0, world, MPI_STATUS_IGNORE); }
void send_block_or_first(const int *buf, int i, int to) { MPI_Send(i > 0 ? buf + i * BLOCK : buf, BLOCK, MPI_INT, to, 0, world); }
void send_skewed(const int *buf, int i, int to) { MPI_Send(buf + i * BLOCK + i, BLOCK, MPI_INT, to, 0, world); }
void send_pairs(const int *buf, int pairs, int to) { MPI_Send(buf, 2 * pairs, MPI_INT, to, 0, world); }
/* The callers. */
void deal(int *all, int *mine, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_block(all, q, BLOCK, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    recv_block(mine, BLOCK, root);
  }
}

void deal_offsets(int *all, int *mine, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_at(all, q * BLOCK, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    recv_block(mine, BLOCK, root);
  }
}

void read_twice(int *all, int *mine, int root, int me, int p) {
  int shift = 0;
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_skewed(all, q + shift, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    recv_block(mine, BLOCK, root);
  }
}

void side_effect(int *all, int *mine, int root, int me, int p) {
  int k = 0;
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_block(all, ++k, BLOCK, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    recv_block(mine, BLOCK, root);
  }
}

void wrapper_local(int *all, int *mine, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_block_local(all, q, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    recv_block(mine, BLOCK, root);
  }
}

void conditional(int *all, int *mine, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_block_or_first(all, q, q);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    recv_block(mine, BLOCK, root);
  }
}

void pairs_of_halves(int *all, int root, int me, int p) {
  int half = BLOCK / 4;
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_pairs(all, half + half, q);
  } else {
    recv_block(all, BLOCK, root);
  }
}

/* Block 0 of a block-addressing wrapper: `mine + 0 * BLOCK` is `mine`. */
void recv_at_block(int *buf, int i, int from) { MPI_Recv(buf + i * BLOCK, BLOCK, MPI_INT, from, 0, world, MPI_STATUS_IGNORE); }
void collect(int *all, int *mine, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) recv_at_block(all, q, q);
    for (int i = 0; i < BLOCK; i++) all[root * BLOCK + i] = mine[i];
  } else {
    send_block(mine, 0, BLOCK, root);
  }
}
// CHECK-NEXT: 08-gather: proposed prog.c:{{[0-9]+-[0-9]+}} -> MPI_Gather(mine, BLOCK, MPI_INT, all, BLOCK, MPI_INT, root, world);
// CHECK-NEXT: 3 proposed, 1 to review, 4 without a patch
// PATCHED:      void collect(int *all, int *mine, int root, int me, int p) {
// PATCHED-NEXT:   MPI_Gather(mine, BLOCK, MPI_INT, all, BLOCK, MPI_INT, root, world);
