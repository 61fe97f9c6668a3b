/* bcast_pipelined.c: a chain broadcast in segments: the root sends the
 * buffer in 4 pieces to rank 1, which forwards each piece to rank 2 as
 * soon as it arrives, and so on (how large broadcasts are pipelined). */
#include <mpi.h>
#include <stdio.h>

enum { N = 4096, SEGMENTS = 4, SEG = N / SEGMENTS };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  static float data[N];
  if (me == 0)
    for (int i = 0; i < N; i++) data[i] = (float)i * 0.5f;
  for (int s = 0; s < SEGMENTS; s++) {
    float *piece = data + s * SEG;
    if (me > 0)
      MPI_Recv(piece, SEG, MPI_FLOAT, me - 1, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me + 1 < p) MPI_Send(piece, SEG, MPI_FLOAT, me + 1, s, MPI_COMM_WORLD);
  }
  if (me == p - 1) printf("bcast_pipelined: done (%g)\n", data[N - 1]);
  MPI_Finalize();
  return 0;
}
