/* reduce_scatter_halving.c: each rank holds a vector of P blocks and ends
 * with block `rank` of the element-wise sum of every rank's vector, by
 * recursive halving (P a power of two): in round k (mask = P/2, P/4, ..., 1)
 * a rank exchanges half of the range it still works on with rank ^ mask,
 * sends the half its partner keeps (the upper half if its own mask bit is
 * clear), and adds the half that arrives into the half it keeps. After
 * log2 P rounds the range is one block, at the rank's position. A
 * hand-made MPI_Reduce_scatter_block.
 * `reduce_scatter_halving zeros` runs the same exchange on vectors of
 * zeros, whose messages prove nothing (every one is the same fill).
 * `reduce_scatter_halving forward` receives each half over the half it
 * keeps and combines nothing: the same messages' shape, forwarding what
 * arrived (not a reduce-scatter).
 * `reduce_scatter_halving lowfirst` takes the masks from 1 up: each rank
 * ends with the block at its rank's bit-reversed position (a
 * reduce-scatter, but not MPI_Reduce_scatter_block's order). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B = 3 }; /* elements per block */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p & (p - 1)) {
    if (me == 0) fprintf(stderr, "reduce_scatter_halving: needs a power of two ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *mode = argc > 1 ? argv[1] : "";
  int zeros = !strcmp(mode, "zeros"), forward = !strcmp(mode, "forward"), lowFirst = !strcmp(mode, "lowfirst");
  int *acc = malloc(sizeof(int) * B * (size_t)p), *in = malloc(sizeof(int) * B * (size_t)p);
  for (int i = 0; i < B * p; i++) acc[i] = zeros ? 0 : me * 1000 + i;
  int lo = 0, blocks = p; /* the range of blocks still worked on */
  for (int mask = lowFirst ? 1 : p / 2; mask >= 1 && mask < p; mask = lowFirst ? mask * 2 : mask / 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    int *into = forward ? acc + keep * B : in;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, into, half * B, MPI_INT, me ^ mask, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B && !forward; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  /* Block `lo` of the sum: sum over ranks q of q * 1000 + (lo * B + i);
   * lo is `me` unless the masks went from 1 up. */
  int wrong = lo != me && !lowFirst;
  for (int i = 0; i < B && !wrong && !forward; i++) {
    long want = zeros ? 0 : 1000L * p * (p - 1) / 2 + (long)p * (lo * B + i);
    wrong = acc[lo * B + i] != want;
  }
  if (wrong) fprintf(stderr, "reduce_scatter_halving: rank %d holds a wrong block\n", me);
  if (me == 0) printf("reduce_scatter_halving: done (%d)\n", acc[0]);
  free(acc), free(in);
  MPI_Finalize();
  return wrong;
}
