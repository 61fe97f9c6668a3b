/* wrapper_refusals.c: four linear broadcasts whose messages go through the
 * program's own wrappers (wrapper_refusals.h), each of which does something
 * an MPI_Bcast at the callers would not: a block size only the wrapper
 * knows, a message counter, a status the caller reads, an error code the
 * caller checks. The detector finds four bcasts; the rewriter must say why
 * none of them is patched at its callers. */
#include <stdio.h>
#include <stdlib.h>

#include "wrapper_refusals.h"

enum { BLOCK = 48, STEPS = 2 };

#define PATTERN __attribute__((noinline))

PATTERN static void bcast_sized_by_wrapper(char *buf, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_block(buf, q);
  } else {
    recv_block(buf, root);
  }
}

PATTERN static void bcast_counted(char *buf, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_counted(buf, BLOCK, q);
  } else {
    recv_status(buf, BLOCK, root, MPI_STATUS_IGNORE);
  }
}

PATTERN static void bcast_status_read(char *buf, int me, int p, int root) {
  MPI_Status status;
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_plain(buf, BLOCK, q);
  } else {
    recv_status(buf, BLOCK, root, &status);
    if (status.MPI_SOURCE != root) abort();
  }
}

PATTERN static void bcast_checked(char *buf, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_plain(buf, BLOCK, q);
  } else if (recv_checked(buf, BLOCK, root) != MPI_SUCCESS) {
    abort();
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  char buf[BLOCK];
  long sum = 0;
  for (int step = 0; step < STEPS; step++) {
    /* Payloads that differ by step and pattern: equal payloads prove nothing. */
    for (int k = 0; k < 4; k++) {
      for (int i = 0; i < BLOCK; i++) buf[i] = (char)(me == 0 ? 5 * step + 3 * k + i : 0);
      if (k == 0) bcast_sized_by_wrapper(buf, me, p, 0);
      if (k == 1) bcast_counted(buf, me, p, 0);
      if (k == 2) bcast_status_read(buf, me, p, 0);
      if (k == 3) bcast_checked(buf, me, p, 0);
      for (int i = 0; i < BLOCK; i++) sum += buf[i];
      /* One broadcast at a time: the four are told apart in the trace. */
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  printf("wrapper_refusals: rank %d: %ld, %ld messages sent\n", me, sum, messages_sent);
  MPI_Finalize();
  return 0;
}
