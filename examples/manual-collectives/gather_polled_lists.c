/* gather_polled_lists.c: the root collects every rank's list of records,
 * one rank at a time and in rank order, with flow control: it sends rank i
 * a token, receives i's record count into one scalar, posts the receive of
 * the 4 * count ints into one scratch buffer, sends a go-ahead and waits
 * for the list, which it consumes before asking the next rank. A gather of
 * counts followed by a gatherv of the lists, written out as they arrive:
 * the trace shows no layout of the root's receive buffer (one place). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { FIELDS = 4 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int step = 0; step < 2; step++) {
    int mine = 2 + (me + step) % 3; /* records this rank holds: differ by rank */
    int *list = malloc(sizeof(int) * FIELDS * (size_t)mine);
    for (int i = 0; i < FIELDS * mine; i++) list[i] = step * 10000 + me * 100 + i;
    long total = 0;
    if (me == 0) {
      int size = 0, capacity = 0, *scratch = NULL;
      for (int i = 1; i < p; i++) {
        MPI_Request req;
        MPI_Send(&size, 1, MPI_INT, i, 1, MPI_COMM_WORLD);
        MPI_Recv(&size, 1, MPI_INT, i, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (size > capacity) {
          free(scratch);
          capacity = 8; /* one buffer big enough for every rank here */
          scratch = malloc(sizeof(int) * FIELDS * (size_t)capacity);
        }
        MPI_Irecv(scratch, FIELDS * size, MPI_INT, i, 3, MPI_COMM_WORLD, &req);
        MPI_Send(&size, 1, MPI_INT, i, 4, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int j = 0; j < FIELDS * size; j++) total += scratch[j];
      }
      free(scratch);
      printf("gather_polled_lists: step %d, sum %ld\n", step, total);
    } else {
      int size;
      MPI_Recv(&size, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&mine, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
      MPI_Recv(&size, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(list, FIELDS * mine, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }
    free(list);
  }
  MPI_Finalize();
  return 0;
}
