/* ready_flags.c (not a barrier): each worker tells rank 0 whether its
 * input is ready (a flag the root reads and acts on), and rank 0 answers
 * each with the decision. The flags happen to be equal in this run; their
 * values are data the program uses. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int ready = argc > 1 ? me % 2 : 1, go = 1;
  for (int round = 0; round < 2; round++) {
    if (me == 0) {
      for (int q = 1; q < p; q++) {
        int flag;
        MPI_Recv(&flag, 1, MPI_INT, q, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        go &= flag;
      }
      for (int q = 1; q < p; q++) MPI_Send(&go, 1, MPI_INT, q, 2, MPI_COMM_WORLD);
    } else {
      MPI_Send(&ready, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (!go) break;
  }
  if (me == 0) printf("ready_flags: %s\n", go ? "go" : "stop");
  MPI_Finalize();
  return 0;
}
