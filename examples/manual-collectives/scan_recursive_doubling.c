/* scan_recursive_doubling.c: a prefix sum of two ints per rank by
 * recursive doubling (any P). In step k rank r sends its partial sum to
 * r + 2^k and adds the partial of r - 2^k: after ceil(log2 P) steps rank r
 * holds the sum over ranks 0..r (MPI_Scan with MPI_SUM).
 *   --exclusive  first every rank passes its value to r + 1, then ranks
 *                1..P-1 scan what they got: rank r ends with the sum over
 *                ranks 0..r-1 (MPI_Exscan); rank 0 has none.
 *   --constant   every rank contributes zeros (a field at its initial
 *                state): every operation fits the values, so they pin none.
 * Three scans with different values run one after the other. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 2, REPS = 3 };

/* Inclusive scan of v over ranks first..p-1 (first: the lowest rank taking
 * part); each send is posted before the step's receive. */
static void scan_from(int v[N], int me, int p, int first, MPI_Comm comm) {
  for (int d = 1; d < p - first; d <<= 1) {
    int out[N], in[N];
    MPI_Request req = MPI_REQUEST_NULL;
    memcpy(out, v, sizeof out);
    if (me + d < p) MPI_Isend(out, N, MPI_INT, me + d, 0, comm, &req);
    if (me - d >= first) {
      MPI_Recv(in, N, MPI_INT, me - d, 0, comm, MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++) v[i] += in[i];
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, exclusive = 0, constant = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--exclusive")) exclusive = 1;
    else if (!strcmp(argv[a], "--constant")) constant = 1;
  }
  int result[N] = {0, 0};
  for (int rep = 0; rep < REPS; rep++) {
    int mine[N] = {3 * me * me + 11 + 5 * rep, 100 - 7 * me + rep};
    if (constant) mine[0] = mine[1] = 0;
    if (!exclusive) {
      memcpy(result, mine, sizeof result);
      scan_from(result, me, p, 0, MPI_COMM_WORLD);
      continue;
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (me + 1 < p) MPI_Isend(mine, N, MPI_INT, me + 1, 1, MPI_COMM_WORLD, &req);
    if (me > 0) MPI_Recv(result, N, MPI_INT, me - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (me > 0) scan_from(result, me, p, 1, MPI_COMM_WORLD);
  }
  printf("scan_recursive_doubling: rank %d has %d %d\n", me, result[0], result[1]);
  MPI_Finalize();
  return 0;
}
