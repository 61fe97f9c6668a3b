/* rings_filled_payload.c: every iteration the ranks form one of three
 * rings and each sends the next rank in it 64 bytes, receiving the
 * previous rank's into another buffer. Each rank's buffer is filled with
 * its rank and its first byte is a tag (IMB-P2P's benchmarks fill theirs
 * so and touch the first byte of each cache line); rank 1's never changes,
 * the others stamp the iteration into theirs. Rank 1's unchanging bytes
 * reach ranks 0, 3 and 2, one per iteration, straight from it, while it
 * receives the others' through the same code: not a broadcast, and two
 * bytes of information make no evidence of one. Run with 4 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 4) {
    if (me == 0) fprintf(stderr, "rings_filled_payload: run with 4 ranks\n");
    MPI_Finalize();
    return 1;
  }
  static const int rings[3][4] = {{1, 0, 3, 2}, {1, 3, 2, 0}, {1, 2, 0, 3}};
  char mine[64], theirs[64];
  memset(mine, me, sizeof mine);
  int right = 0;
  for (int it = 0; it < 48; it++) {
    int at = 0;
    while (rings[it % 3][at] != me) at++;
    int to = rings[it % 3][(at + 1) % 4], from = rings[it % 3][(at + 3) % 4];
    mine[0] = (char)(0x40 + me);
    if (me != 1) mine[1] = (char)(it + 16);
    MPI_Request req;
    MPI_Irecv(theirs, 64, MPI_BYTE, from, 0, MPI_COMM_WORLD, &req);
    MPI_Send(mine, 64, MPI_BYTE, to, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    right += theirs[0] == (char)(0x40 + from) && theirs[63] == (char)from;
  }
  printf("rings_filled_payload: rank %d got %d of 48 from the right sender\n", me, right);
  MPI_Finalize();
  return 0;
}
