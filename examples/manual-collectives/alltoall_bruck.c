/* alltoall_bruck.c: Bruck's alltoall with packed copies, for any P.
 * 1. Local rotation: work block i is the send block for rank me+i.
 * 2. For k = 0, 1, ... while 2^k < P: the work blocks whose index has bit
 *    k set are packed (memcpy) into one buffer and sent to me+2^k; the
 *    same blocks come back from me-2^k and are unpacked in their place.
 *    After the last step work block i is the block rank me-i sent to me.
 * 3. Inverse rotation into the receive array (block p from rank p).
 * Every message is a pack buffer: no block travels from the buffer it was
 * received into, and each message holds about P/2 blocks. Runs twice and
 * checks the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  size_t bytes = sizeof(int) * BLOCK;
  int *out = malloc(bytes * (size_t)p), *in = malloc(bytes * (size_t)p);
  int *work = malloc(bytes * (size_t)p), *pack = malloc(bytes * (size_t)p),
      *unpack = malloc(bytes * (size_t)p);
  int bad = 0;
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < BLOCK * p; i++) out[i] = iter * 100000 + me * 1000 + i;
    for (int i = 0; i < p; i++) memcpy(work + i * BLOCK, out + ((me + i) % p) * BLOCK, bytes);
    for (int k = 1; k < p; k <<= 1) {
      int n = 0;
      for (int i = 0; i < p; i++)
        if (i & k) memcpy(pack + n++ * BLOCK, work + i * BLOCK, bytes);
      MPI_Sendrecv(pack, n * BLOCK, MPI_INT, (me + k) % p, 7, unpack, n * BLOCK, MPI_INT,
                   (me - k + p) % p, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      n = 0;
      for (int i = 0; i < p; i++)
        if (i & k) memcpy(work + i * BLOCK, unpack + n++ * BLOCK, bytes);
    }
    for (int i = 0; i < p; i++) memcpy(in + ((me - i + p) % p) * BLOCK, work + i * BLOCK, bytes);
    for (int src = 0; src < p; src++)
      for (int j = 0; j < BLOCK; j++)
        bad += in[src * BLOCK + j] != iter * 100000 + src * 1000 + me * BLOCK + j;
  }
  if (me == 0) printf("alltoall_bruck: %s\n", bad ? "WRONG" : "done");
  free(out), free(in), free(work), free(pack), free(unpack);
  MPI_Finalize();
  return bad != 0;
}
