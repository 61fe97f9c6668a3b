/* bcast_binomial.c: a binomial-tree broadcast with nonblocking sends: in
 * round k every rank that has the data forwards it 2^k ranks further
 * (relative to the root). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, root = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int data[100];
  for (int iter = 0; iter < 2; iter++) {
    int rel = (me - root + p) % p;
    if (rel == 0)
      for (int i = 0; i < 100; i++) data[i] = iter * 7 + i;
    int mask = 1;
    while (mask < p) { /* receive from the parent */
      if (rel & mask) {
        MPI_Recv(data, 100, MPI_INT, (me - mask + p) % p, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
      }
      mask <<= 1;
    }
    MPI_Request reqs[32];
    int n = 0;
    for (mask >>= 1; mask > 0; mask >>= 1) /* send to the children */
      if (rel + mask < p)
        MPI_Isend(data, 100, MPI_INT, (me + mask) % p, 3, MPI_COMM_WORLD, &reqs[n++]);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  }
  if (me == 0) printf("bcast_binomial: done (%d)\n", data[99]);
  MPI_Finalize();
  return 0;
}
