/* alltoall_hypercube.c: an alltoall by store and forward on a hypercube
 * (p a power of two). Slot j of a rank's buffer starts with its block for
 * rank j. At step `bit` each rank packs the slots whose bit differs from
 * its own (blocks bound for the partner's half), exchanges them with its
 * partner me ^ bit, and unpacks what it receives into the same slots. After
 * log2(p) steps slot j holds rank j's block for this rank: every block
 * travelled in a packed message, changing message at every hop. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B = 4 }; /* doubles per block */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  size_t half = sizeof(double) * B * (size_t)(p / 2);
  double *slot = malloc(sizeof(double) * B * (size_t)p);
  double *out = malloc(half), *in = malloc(half);
  for (int j = 0; j < p; j++)
    for (int i = 0; i < B; i++) slot[j * B + i] = me * 1000 + j * 10 + i + 0.5;
  for (int bit = 1; bit < p; bit <<= 1) {
    int n = 0;
    for (int j = 0; j < p; j++)
      if ((j & bit) != (me & bit)) memcpy(out + B * n++, slot + B * j, sizeof(double) * B);
    MPI_Sendrecv(out, n * B, MPI_DOUBLE, me ^ bit, 3, in, n * B, MPI_DOUBLE, me ^ bit, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    n = 0;
    for (int j = 0; j < p; j++)
      if ((j & bit) != (me & bit)) memcpy(slot + B * j, in + B * n++, sizeof(double) * B);
  }
  int ok = 1;
  for (int j = 0; j < p; j++) ok &= slot[j * B] == j * 1000 + me * 10 + 0.5;
  if (me == 0) printf("alltoall_hypercube: %s\n", ok ? "done" : "WRONG");
  free(slot), free(out), free(in);
  MPI_Finalize();
  return !ok;
}
