/* Not a collective: a periodic 1-D shift of random walkers. The domain is
 * cut into one part per rank; in every step each rank moves its walkers,
 * passes the ones that left its part to rank + 1 (the last rank to rank 0)
 * and takes in those rank - 1 passed it, after MPI_Probe tells how many.
 * Even ranks send first, odd ranks receive first.
 *
 * How many walkers leave in a step depends on the seed (first argument,
 * default 1) and on the rank, and every rank computes for a time that
 * varies with both: run with another seed, the messages differ in size and
 * in timing. Some steps' messages happen to be equal in size along a chain
 * of ranks (0 -> 1 -> 2 -> 3, one step after another): that chain is a
 * reduce's shape, but the last rank passes walkers on to rank 0 through
 * the same send in every step. Whatever the seed, the detector must give
 * the same answer: no collective.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define STEPS 24
#define MAX_WALKERS 64
#define PART 25 /* cells per rank */

typedef struct {
  int position;
  int steps_left;
} walker;

/* A small deterministic generator, so one seed gives one run. */
static unsigned next_random(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (*state >> 16) & 0x7fff;
}

static void pass_on(walker *out, int n_out, int to) {
  MPI_Send(out, n_out * (int)sizeof(walker), MPI_BYTE, to, 0, MPI_COMM_WORLD);
}

static int take_in(walker *in, int from) {
  MPI_Status status;
  int bytes;
  MPI_Probe(from, 0, MPI_COMM_WORLD, &status);
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  MPI_Recv(in, bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes / (int)sizeof(walker);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1u;
  unsigned state = seed * 7919u + (unsigned)rank * 104729u;
  int start = rank * PART, end = start + PART;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  walker held[MAX_WALKERS], out[MAX_WALKERS];
  int n_held = 0;
  for (int step = 0; step < STEPS; step++) {
    /* New walkers start at the beginning of this rank's part. */
    int born = (int)(next_random(&state) % 3);
    for (int i = 0; i < born && n_held < MAX_WALKERS; i++)
      held[n_held++] = (walker){start, (int)(next_random(&state) % (2 * PART)) + 1};
    /* Walk; a walker that reaches the end of the part leaves. */
    int n_out = 0, kept = 0;
    for (int i = 0; i < n_held; i++) {
      walker w = held[i];
      int stride = (int)(next_random(&state) % PART) + 1;
      if (stride > w.steps_left) stride = w.steps_left;
      w.position += stride;
      w.steps_left -= stride;
      if (w.steps_left == 0) continue; /* finished here */
      if (w.position >= end && n_out < MAX_WALKERS) {
        w.position = end % (size * PART);
        out[n_out++] = w;
      } else if (w.position < end) {
        held[kept++] = w;
      }
    }
    n_held = kept;
    usleep((useconds_t)(200 * ((seed + (unsigned)rank + (unsigned)step) % 4)));
    walker in[MAX_WALKERS];
    int n_in;
    if (rank % 2 == 0) {
      pass_on(out, n_out, next);
      n_in = take_in(in, prev);
    } else {
      n_in = take_in(in, prev);
      pass_on(out, n_out, next);
    }
    for (int i = 0; i < n_in && n_held < MAX_WALKERS; i++) held[n_held++] = in[i];
  }
  printf("rank %d: %d walkers left\n", rank, n_held);
  MPI_Finalize();
  return 0;
}
