/* scan_chain.c: prefix sums of two ints per rank along the chain
 * 0 -> 1 -> ... -> P-1 (any P). Three scans with different values.
 *   (default)    rank r receives the sum over ranks 0..r-1 from r-1, adds
 *                its own value and sends the sum over 0..r on (MPI_Scan).
 *                Its messages are those of a reduce to rank P-1 (or of a
 *                wavefront): no message shows a rank's own value.
 *   --exclusive  every rank first passes its own value to r + 1; then rank
 *                r receives the sum over ranks 0..r-2 from r-1, adds the
 *                value of r-1 and passes the sum over 0..r-1 on: rank r
 *                ends with the sum over ranks below it (MPI_Exscan).
 *   --forward    every rank sends its own value to r + 1 and passes on,
 *                unchanged, each value it receives; rank r adds up what it
 *                received and its own (MPI_Scan, combined at the receivers). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 2, REPS = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, exclusive = 0, forward = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--exclusive")) exclusive = 1;
    else if (!strcmp(argv[a], "--forward")) forward = 1;
  }
  MPI_Comm comm = MPI_COMM_WORLD;
  int sum[N] = {0, 0};
  for (int rep = 0; rep < REPS; rep++) {
    int mine[N] = {3 * me * me + 11 + 5 * rep, 100 - 7 * me + rep}, got[N];
    if (forward) {
      memcpy(sum, mine, sizeof sum);
      if (me + 1 < p) MPI_Send(mine, N, MPI_INT, me + 1, 0, comm);
      for (int k = 0; k < me; k++) { /* one value from each rank below */
        MPI_Recv(got, N, MPI_INT, me - 1, 0, comm, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++) sum[i] += got[i];
        if (me + 1 < p) MPI_Send(got, N, MPI_INT, me + 1, 0, comm);
      }
    } else if (exclusive) {
      int below[N], pass[N];
      MPI_Request req = MPI_REQUEST_NULL;
      if (me + 1 < p) MPI_Isend(mine, N, MPI_INT, me + 1, 1, comm, &req);
      if (me > 0) MPI_Recv(below, N, MPI_INT, me - 1, 1, comm, MPI_STATUS_IGNORE);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      if (me > 1) MPI_Recv(sum, N, MPI_INT, me - 1, 0, comm, MPI_STATUS_IGNORE);
      if (me > 0) {
        for (int i = 0; i < N; i++) sum[i] = (me > 1 ? sum[i] : 0) + below[i];
        memcpy(pass, sum, sizeof pass);
        if (me + 1 < p) MPI_Send(pass, N, MPI_INT, me + 1, 0, comm);
      }
    } else {
      if (me > 0) MPI_Recv(got, N, MPI_INT, me - 1, 0, comm, MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++) sum[i] = (me > 0 ? got[i] : 0) + mine[i];
      if (me + 1 < p) MPI_Send(sum, N, MPI_INT, me + 1, 0, comm);
    }
  }
  printf("scan_chain: rank %d has %d %d\n", me, sum[0], sum[1]);
  MPI_Finalize();
  return 0;
}
