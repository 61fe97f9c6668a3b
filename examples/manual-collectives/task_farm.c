/* task_farm.c (not a collective): rank 0 hands out numbered tasks to
 * whichever worker asks first (MPI_ANY_SOURCE) until all are done. */
#include <mpi.h>
#include <stdio.h>

enum { TASKS = 20, STOP = -1 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me == 0) {
    int next = 0, stopped = 0, result;
    MPI_Status st;
    while (stopped < p - 1) {
      MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
      int task = next < TASKS ? next++ : STOP;
      if (task == STOP) stopped++;
      MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, 2, MPI_COMM_WORLD);
    }
    printf("task_farm: done (%d tasks)\n", next);
  } else {
    int result = -me, task = 0;
    for (;;) {
      MPI_Send(&result, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(&task, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task == STOP) break;
      result = task * task + me;
    }
  }
  MPI_Finalize();
  return 0;
}
