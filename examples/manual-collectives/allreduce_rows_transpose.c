/* allreduce_rows_transpose.c: NPB CG's matrix-vector step in small. The
 * ranks form rows of ROW (a process grid's rows, on MPI_COMM_WORLD with
 * world ranks); each row sums a vector of N doubles by recursive doubling
 * (in step i a rank swaps its whole running sum with the rank whose column
 * differs in bit ROW_BITS - i: Irecv into a scratch vector, Send, Wait,
 * add; tag i), then every rank swaps the summed vector, into another
 * array, with a partner in another row: tag 1 and the same size as the row
 * sums, no collective. On a square grid (P = ROW * ROW = 16) the partner
 * is the transposed position, as in NPB CG (the diagonal swaps with
 * itself): numbered without tags, the rows' last step and the swaps fall
 * in one round, whose swaps link the rows into one group; expected: one
 * allreduce (MPI_SUM) per row. Otherwise (P = 8: two rows) the partner is
 * the same column in the paired row, rank ^ ROW, which is the next
 * butterfly partner: the messages then have a world allreduce's shape,
 * but the last swap is never added (expected: never confirmed). */
#include <mpi.h>
#include <stdio.h>

enum { ROW = 4, ROW_BITS = 2, N = 64, ROUNDS = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 2 * ROW && p != ROW * ROW) {
    if (me == 0) fprintf(stderr, "allreduce_rows_transpose: run on %d or %d ranks\n", 2 * ROW, ROW * ROW);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int first = me / ROW * ROW, column = me % ROW, row = me / ROW;
  int across = p == ROW * ROW ? column * ROW + row /* the transposed position */
                              : (row ^ 1) * ROW + column; /* the same column in the paired row */
  double w[N], q[N], t[N], checksum = 0;
  for (int round = 0; round < ROUNDS; round++) {
    for (int j = 0; j < N; j++) w[j] = 0.5 * me + 0.25 * j + 3 * round;
    for (int i = 1; i <= ROW_BITS; i++) {
      int partner = first + (column ^ (1 << (ROW_BITS - i)));
      MPI_Request request;
      MPI_Irecv(q, N, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &request);
      MPI_Send(w, N, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) w[j] += q[j];
    }
    MPI_Request request;
    MPI_Irecv(t, N, MPI_DOUBLE, across, 1, MPI_COMM_WORLD, &request);
    MPI_Send(w, N, MPI_DOUBLE, across, 1, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int j = 0; j < N; j++) checksum += t[j] * (j + 1);
  }
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("allreduce_rows_transpose: %.2f\n", total);
  MPI_Finalize();
  return 0;
}
