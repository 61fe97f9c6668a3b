/* pair_swaps_random.c: a bandwidth benchmark's random pairs (the shape of
 * IMB-P2P's Birandom): every iteration all ranks draw the same pseudo-random
 * pair (a, b), and a and b swap their send buffers, each filled once with
 * its own rank's pattern. Over the iterations every rank's one unchanging buffer
 * reaches every other rank, directly, which looks like one broadcast per
 * rank, the roots taking turns. But the "broadcasts" overlap: a rank sends
 * its buffer to one partner, receives another rank's, then sends its own
 * again. Not a collective. The program checks each received buffer. */
#include <mpi.h>
#include <stdio.h>

enum { BYTES = 64, ITERATIONS = 24 };

static unsigned next_random(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 16) & 0x7fff;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, wrong = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  unsigned char out[BYTES], in[BYTES];
  for (int i = 0; i < BYTES; i++) out[i] = (unsigned char)((me + 1) * 31 + i);
  unsigned seed = 7;
  for (int it = 0; it < ITERATIONS * p; it++) {
    int a = (int)(next_random(&seed) % (unsigned)p), b;
    do b = (int)(next_random(&seed) % (unsigned)p); while (b == a);
    if (me != a && me != b) continue;
    int partner = me == a ? b : a;
    MPI_Request r;
    MPI_Irecv(in, BYTES, MPI_BYTE, partner, 0, MPI_COMM_WORLD, &r);
    MPI_Send(out, BYTES, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    wrong += in[0] != (unsigned char)((partner + 1) * 31) ||
             in[BYTES - 1] != (unsigned char)((partner + 1) * 31 + BYTES - 1);
  }
  int all = 0;
  MPI_Reduce(&wrong, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("pair_swaps_random: %d ranks, %d wrong\n", p, all);
  MPI_Finalize();
  return 0;
}
