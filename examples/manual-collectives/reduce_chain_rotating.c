/* reduce_chain_rotating.c: a linear-pipeline sum of one double to a root,
 * called once for every root in turn. For root r the chain starts at rank
 * (r + P - 1) % P, which sends its value to (r + P - 2) % P; each rank on
 * the way adds what it received to its own value and passes the sum on,
 * down to r. The same send and receive carry every call, so the rank that
 * was the root of one call starts the chain of the next: the messages of
 * consecutive calls close a ring through the same code, as a shift's do,
 * but each call combines the values and ends at its root.
 *
 * Rank q's contribution to root r's sum is a block of a matrix-vector
 * product, different for every (q, r); each root keeps its sum and uses
 * it afterwards (the sum of squares every rank prints).
 *
 * With the argument "fixed", root 0 is the root of every call (three).
 * With "forward" (not a reduce), every rank passes on what it received
 * unchanged: the same messages carry one value around the ring.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* This rank's share of entry `row` of y = A x, A and x made up. */
static double contribution(int me, int row, int call) {
  return 1.0 + 0.25 * me + 0.125 * row * row + 0.5 * call + (me == row ? 0.0625 : 0.0);
}

/* The sum of every rank's `mine` at root; the result is meaningful there. */
static double chain_reduce(double mine, int root, int me, int p, int forward) {
  int from_root = (me - root + p) % p; /* 0 at the root, p - 1 at the chain's start */
  double acc = mine, in;
  if (from_root < p - 1) {
    MPI_Recv(&in, 1, MPI_DOUBLE, (me + 1) % p, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    acc = forward ? in : acc + in;
  }
  if (from_root > 0) MPI_Send(&acc, 1, MPI_DOUBLE, (me + p - 1) % p, 7, MPI_COMM_WORLD);
  return acc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int fixed = argc > 1 && strcmp(argv[1], "fixed") == 0;
  int forward = argc > 1 && strcmp(argv[1], "forward") == 0;
  int calls = fixed ? 3 : p;
  double mine_sq = 0; /* the squares of the sums this rank was the root of */
  for (int call = 0; call < calls; call++) {
    int root = fixed ? 0 : call;
    double y = chain_reduce(contribution(me, root, call), root, me, p, forward);
    if (me == root) mine_sq += y * y;
  }
  printf("reduce_chain_rotating: rank %d holds %.6f\n", me, mine_sq);
  MPI_Finalize();
  return 0;
}
