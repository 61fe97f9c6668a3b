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
 * reduce-scatter, but not MPI_Reduce_scatter_block's order).
 * `reduce_scatter_halving allreduce` then undoes the halving (recursive
 * doubling with the same partners in reverse order: each rank sends the
 * range it holds finished and receives its partner's beside it), so that
 * every rank ends with the whole sum: Rabenseifner's MPI_Allreduce. */
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
  int allreduce = !strcmp(mode, "allreduce");
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
  for (int mask = 1; mask < p && allreduce; mask *= 2) {
    int theirs = (me & mask) ? lo - blocks : lo + blocks;
    MPI_Sendrecv(acc + lo * B, blocks * B, MPI_INT, me ^ mask, 8, acc + theirs * B, blocks * B, MPI_INT,
                 me ^ mask, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    lo = lo < theirs ? lo : theirs, blocks *= 2;
  }
  /* Block b of the sum: sum over ranks q of q * 1000 + (b * B + i). The
   * rank's block is `lo` (`me` unless the masks went from 1 up); after
   * the allreduce every block is checked. */
  int wrong = lo != me && !lowFirst && !allreduce;
  for (int b = allreduce ? 0 : lo; b < (allreduce ? p : lo + 1) && !forward; b++)
    for (int i = 0; i < B && !wrong; i++) {
      long want = zeros ? 0 : 1000L * p * (p - 1) / 2 + (long)p * (b * B + i);
      wrong = acc[b * B + i] != want;
    }
  if (wrong) fprintf(stderr, "reduce_scatter_halving: rank %d holds a wrong block\n", me);
  if (me == 0) printf("reduce_scatter_halving: done (%d)\n", acc[0]);
  free(acc), free(in);
  MPI_Finalize();
  return wrong;
}
