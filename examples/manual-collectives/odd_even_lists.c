/* odd_even_lists.c: odd-even transposition sort of lists of 32 ints, one
 * list per rank, the keys descending from rank to rank at the start (the
 * shape of a textbook parallel_odd_even.c). In each phase a rank swaps its
 * list with its even or odd neighbour (MPI_Sendrecv into a scratch list)
 * and keeps the lower or upper half of the merge. With lists that start in
 * reverse order a whole list moves on unchanged, phase after phase, from
 * the scratch list it arrived in to the list the rank sends next: data a
 * part of the group receives and passes on, but no broadcast. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 32 };

static void merge_keep(int *mine, const int *theirs, int low) {
  int out[N];
  if (low) {
    for (int i = 0, a = 0, b = 0; i < N; i++) out[i] = mine[a] <= theirs[b] ? mine[a++] : theirs[b++];
  } else {
    for (int i = N - 1, a = N - 1, b = N - 1; i >= 0; i--) out[i] = mine[a] >= theirs[b] ? mine[a--] : theirs[b--];
  }
  memcpy(mine, out, sizeof out);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[N], theirs[N];
  for (int i = 0; i < N; i++) mine[i] = (p - me) * 1000 + i * 7;
  for (int phase = 0; phase < p; phase++) {
    int partner = (phase + me) % 2 == 0 ? me + 1 : me - 1;
    if (partner < 0 || partner >= p) continue;
    MPI_Sendrecv(mine, N, MPI_INT, partner, 0, theirs, N, MPI_INT, partner, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    merge_keep(mine, theirs, me < partner);
  }
  int sorted = 1;
  for (int i = 1; i < N; i++) sorted &= mine[i - 1] <= mine[i];
  int first = mine[0], prevLast = -1;
  if (me > 0) MPI_Recv(&prevLast, 1, MPI_INT, me - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me + 1 < p) MPI_Send(&mine[N - 1], 1, MPI_INT, me + 1, 1, MPI_COMM_WORLD);
  sorted &= prevLast <= first;
  int all = 0;
  MPI_Reduce(&sorted, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("odd_even_lists: %d of %d ranks sorted\n", all, p);
  MPI_Finalize();
  return 0;
}
