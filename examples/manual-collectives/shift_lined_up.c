/* shift_lined_up.c (not a collective): a periodic shift in which every
 * rank passes what it holds to rank + 1 (the last rank to rank 0) and
 * takes what rank - 1 passed, in every step, through one send and one
 * receive. In step s rank s % P passes two values, the
 * others one, so the two-value messages line up, step after step, into
 * chains of P - 1 messages through one send and one receive that end at a
 * new rank each time, as a linear-pipeline reduce called for one root
 * after another does (reduce_chain_rotating.c). But each chain's last
 * rank passes values on in every step while that chain runs: a shift,
 * not a reduce. */
#include <mpi.h>
#include <stdio.h>

#define STEPS 12 /* a multiple of P - 1 for P = 4 and 5: every chain complete */

static int pass_on(double held[2], int step, int me, int p) {
  double out[2] = {held[0] + 1.0 + 0.125 * me, held[1] + 0.5 * step};
  double in[2];
  int n_out = step % p == me ? 2 : 1, next = (me + 1) % p, prev = (me + p - 1) % p;
  int n_in = (step % p == prev) ? 2 : 1;
  MPI_Request sent;
  MPI_Isend(out, n_out, MPI_DOUBLE, next, 3, MPI_COMM_WORLD, &sent);
  MPI_Recv(in, n_in, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
  held[0] = in[0];
  if (n_in == 2) held[1] = in[1];
  return n_in;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double held[2] = {me * 10.0, me * 0.25};
  int pairs = 0;
  for (int step = 0; step < STEPS; step++) pairs += pass_on(held, step, me, p) == 2;
  printf("shift_lined_up: rank %d holds %.3f %.3f (%d pairs)\n", me, held[0], held[1], pairs);
  MPI_Finalize();
  return 0;
}
