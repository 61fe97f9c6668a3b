/* barrier_butterfly_echo.c: a butterfly barrier written with a data
 * buffer instead of empty messages. At stage s every rank pairs with
 * rank ^ s: the lower one sends its buffer and receives into it, the upper
 * one receives into its buffer and sends that buffer straight back, an
 * echo of what just arrived. The buffer is filled with rank-dependent
 * bytes only so that the trace tells the messages apart (programs often
 * leave it unwritten); nothing reads it afterwards. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { WORDS = 64 };

static void butterfly_barrier(int me, int p, int *buf) {
  for (int s = 1; s < p; s *= 2) {
    int partner = me ^ s;
    if (me < partner) {
      MPI_Send(buf, WORDS, MPI_INT, partner, 3, MPI_COMM_WORLD);
      MPI_Recv(buf, WORDS, MPI_INT, partner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, WORDS, MPI_INT, partner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, WORDS, MPI_INT, partner, 3, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *buf = malloc(WORDS * sizeof *buf);
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < WORDS; i++) buf[i] = 977 * me + 31 * iter + i;
    butterfly_barrier(me, p, buf);
  }
  free(buf);
  if (me == 0) printf("barrier_butterfly_echo: done\n");
  MPI_Finalize();
  return 0;
}
