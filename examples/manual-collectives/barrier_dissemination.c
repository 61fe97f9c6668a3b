/* barrier_dissemination.c: in round k every rank sends an empty message
 * to rank me + 2^k and waits for one from me - 2^k; after ceil(log2 P)
 * rounds everyone has heard from everyone. Three barriers in a row. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int b = 0; b < 3; b++)
    for (int dist = 1; dist < p; dist <<= 1)
      MPI_Sendrecv(NULL, 0, MPI_BYTE, (me + dist) % p, 8, NULL, 0, MPI_BYTE,
                   (me - dist + p) % p, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me == 0) printf("barrier_dissemination: done\n");
  MPI_Finalize();
  return 0;
}
