/* rings_own_payload.c: every iteration the ranks form another ring and
 * each sends the next rank in it 8 bytes, receiving the previous rank's
 * into another buffer (IMB-P2P's Corandom draws such rings at random; four
 * fixed ones here). Rank 1's bytes never change; the others stamp the
 * iteration into theirs, 12 times round the four rings. Rank 1's
 * unchanging bytes reach ranks 0, 3, 0
 * again, then 2, straight from it: the same data to every rank, but one of
 * them twice before the last had it once, which no broadcast does. Run
 * with 4 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 4) {
    if (me == 0) fprintf(stderr, "rings_own_payload: run with 4 ranks\n");
    MPI_Finalize();
    return 1;
  }
  static const int rings[4][4] = {{1, 0, 3, 2}, {1, 3, 0, 2}, {1, 0, 2, 3}, {1, 2, 0, 3}};
  char mine[8] = {0}, theirs[8];
  int right = 0;
  for (int it = 0; it < 48; it++) {
    int at = 0;
    while (rings[it % 4][at] != me) at++;
    int to = rings[it % 4][(at + 1) % 4], from = rings[it % 4][(at + 3) % 4];
    mine[0] = (char)(0x40 + me);
    if (me != 1) mine[1] = (char)(it + 1);
    MPI_Request req;
    MPI_Irecv(theirs, 8, MPI_BYTE, from, 0, MPI_COMM_WORLD, &req);
    MPI_Send(mine, 8, MPI_BYTE, to, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    right += theirs[0] == (char)(0x40 + from);
  }
  printf("rings_own_payload: rank %d got %d of 48 from the right sender\n", me, right);
  MPI_Finalize();
  return 0;
}
