/* alltoall_bruck_indexed.c: Bruck's alltoall with derived datatypes, the
 * way MPI libraries write it: the blocks of step k (work blocks whose index
 * has bit k set) are described by an MPI_Type_create_indexed_block and sent
 * straight from the work array; they arrive at the same places of a
 * scratch array and are copied back. Rotation, steps and inverse rotation
 * as in alltoall_bruck.c; every message is one element of a derived type.
 * Runs twice and checks the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 4, MAX_STEPS = 31 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  size_t bytes = sizeof(int) * BLOCK;
  int *out = malloc(bytes * (size_t)p), *in = malloc(bytes * (size_t)p);
  int *work = malloc(bytes * (size_t)p), *scratch = malloc(bytes * (size_t)p);
  int *displs = malloc(sizeof(int) * (size_t)p);
  MPI_Datatype step[MAX_STEPS];
  int steps = 0;
  for (int k = 1; k < p; k <<= 1, steps++) {
    int n = 0;
    for (int i = 0; i < p; i++)
      if (i & k) displs[n++] = i * BLOCK;
    MPI_Type_create_indexed_block(n, BLOCK, displs, MPI_INT, &step[steps]);
    MPI_Type_commit(&step[steps]);
  }
  int bad = 0;
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < BLOCK * p; i++) out[i] = iter * 100000 + me * 1000 + i;
    for (int i = 0; i < p; i++) memcpy(work + i * BLOCK, out + ((me + i) % p) * BLOCK, bytes);
    for (int k = 1, s = 0; k < p; k <<= 1, s++) {
      MPI_Sendrecv(work, 1, step[s], (me + k) % p, 8, scratch, 1, step[s], (me - k + p) % p, 8,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < p; i++)
        if (i & k) memcpy(work + i * BLOCK, scratch + i * BLOCK, bytes);
    }
    for (int i = 0; i < p; i++) memcpy(in + ((me - i + p) % p) * BLOCK, work + i * BLOCK, bytes);
    for (int src = 0; src < p; src++)
      for (int j = 0; j < BLOCK; j++)
        bad += in[src * BLOCK + j] != iter * 100000 + src * 1000 + me * BLOCK + j;
  }
  for (int s = 0; s < steps; s++) MPI_Type_free(&step[s]);
  if (me == 0) printf("alltoall_bruck_indexed: %s\n", bad ? "WRONG" : "done");
  free(out), free(in), free(work), free(scratch), free(displs);
  MPI_Finalize();
  return bad != 0;
}
