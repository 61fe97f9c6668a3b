/* trace_abort.c N MODE: a run that never reaches MPI_Finalize.
 * Every rank does N ring exchanges (64 B, content depends on the step, so
 * enough events that OTF2 has flushed some chunks and holds others), an
 * allreduce on an MPI_Comm_split communicator, and records a kept buffer of
 * 4242 ints (the marker). After a barrier, rank 1 ends the job: MODE "abort" calls
 * MPI_Abort(3), "kill" raises SIGKILL; the other ranks wait in MPI_Recv
 * until mpirun kills them. MODE "finish" ends normally instead; "fill"
 * too, after rank 0 filled the file system of the file FILL (argv[3]) to
 * the last byte, so that the tracer finds the disk full at MPI_Finalize. */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#include "collectivize.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int fill = argc == 4 && strcmp(argv[2], "fill") == 0;
  if ((argc != 3 && !fill) || P < 2) {
    if (me == 0) fprintf(stderr, "usage: trace_abort N abort|kill|finish|fill FILL (2+ ranks)\n");
    MPI_Finalize();
    return 2;
  }
  int n = atoi(argv[1]);
  unsigned char out[64], in[64];
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
  for (int i = 0; i < n; i++) {
    memset(out, i * 7 + me, sizeof out);
    MPI_Sendrecv(out, 64, MPI_BYTE, (me + 1) % P, 1, in, 64, MPI_BYTE,
                 (me + P - 1) % P, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  int x = me, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, half);
  static int marker[4242];
  cz_send_to_self(marker, 4242, MPI_INT);
  printf("trace_abort: rank %d reached the end\n", me);
  fflush(stdout);
  if (fill && me == 0) {
    static char block[4096];
    int fd = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    while (fd >= 0 && write(fd, block, sizeof block) > 0) {}
    while (fd >= 0 && write(fd, block, 1) > 0) {}
    if (fd >= 0) close(fd);
  }
  if (fill) MPI_Barrier(MPI_COMM_WORLD);
  if (fill || strcmp(argv[2], "finish") == 0) {
    MPI_Finalize();
    return 0;
  }
  /* Every rank has recorded its marker before rank 1 ends the job (else
   * a slow rank's trace would lack it: a race, not a tracer fault). */
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 1) {
    if (strcmp(argv[2], "kill") == 0) raise(SIGKILL);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Recv(in, 1, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
