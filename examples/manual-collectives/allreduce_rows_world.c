/* allreduce_rows_world.c: the ranks form rows of ROW (a process grid's
 * rows), and each row sums one double by recursive doubling written on
 * MPI_COMM_WORLD with world ranks: in step i a rank swaps its running sum
 * with the rank whose column differs in bit ROW_BITS - i (Irecv, Send,
 * Wait, tag i) and adds what arrived. There is no communicator of a row,
 * so the rows are subsets of MPI_COMM_WORLD the detector must find, each
 * an allreduce, and name the MPI_Comm_split that makes them: the shape of
 * NPB CG's sums along a processor row (bench/realcode/labels/npb.md). P
 * must be a multiple of ROW; ROW a power of two. */
#include <mpi.h>
#include <stdio.h>

enum { ROW = 4, ROW_BITS = 2, ROUNDS = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p % ROW) {
    if (me == 0) fprintf(stderr, "allreduce_rows_world: run on a multiple of %d ranks\n", ROW);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int first = me / ROW * ROW, column = me % ROW;
  double checksum = 0;
  for (int round = 0; round < ROUNDS; round++) {
    double sum = 1.25 * me + 10 * round, arrived;
    for (int i = 1; i <= ROW_BITS; i++) {
      int partner = first + (column ^ (1 << (ROW_BITS - i)));
      MPI_Request request;
      MPI_Irecv(&arrived, 1, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &request);
      MPI_Send(&sum, 1, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      sum += arrived;
    }
    checksum += sum * (me + 1);
  }
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("allreduce_rows_world: %.2f\n", total);
  MPI_Finalize();
  return 0;
}
