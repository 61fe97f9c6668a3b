/* bcast_long.c: van de Geijn's long broadcast in an LU-style loop (HPL's
 * BCAST 4). Panel k belongs to rank k % p, which splits it into one piece
 * per rank (piece d for the rank at ring distance d; the last piece takes
 * the remainder), spreads them down a binomial tree (each child gets the
 * run of consecutive pieces of its subtree, one message, and passes parts
 * of it on), then every rank rolls the pieces around the ring (p - 1
 * steps, each rank first sending its own piece). Every rank updates its
 * data with the panel before the next one.
 *
 *   bcast_long [neighbour | helper] [zeros]
 * neighbour: HPL's BCAST 5: the root first sends the whole panel to the
 *   next rank, and the others spread and roll it without that rank.
 * helper: the root sends the whole panel to the next rank, which spreads
 *   it among the other ranks and rolls it with them.
 * zeros: every panel all zeros (a fill proves no path: not confirmed). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 1001, PANELS = 8, TAG = 21 };

/* Where piece k of m starts in a buffer of n elements. */
static int piece_start(int k, int m, int n) { return k == m ? n : k * (n / m); }

/* Broadcast buf among members[0..m) (members[0] the root); `my` is this
 * rank's index there. */
static void spread_and_roll(double *buf, int n, const int *members, int m, int my, MPI_Comm comm) {
  /* Spread: a binomial tree over the indices; index r receives the pieces
   * [r, r + mask) from r - mask (mask: r's lowest set bit). */
  int mask = 1;
  if (my == 0) {
    while (mask < m) mask <<= 1;
  } else {
    while (!(my & mask)) mask <<= 1;
    int last = my + mask < m ? my + mask : m;
    int lo = piece_start(my, m, n), hi = piece_start(last, m, n);
    MPI_Recv(buf + lo, hi - lo, MPI_DOUBLE, members[my - mask], TAG, comm, MPI_STATUS_IGNORE);
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    int child = my + mask;
    if (child >= m) continue;
    int last = child + mask < m ? child + mask : m;
    int lo = piece_start(child, m, n), hi = piece_start(last, m, n);
    MPI_Send(buf + lo, hi - lo, MPI_DOUBLE, members[child], TAG, comm);
  }
  /* Roll: in step s each index sends the piece it got s steps ago (its own
   * first) to the next index and receives the previous one's. */
  int next = members[(my + 1) % m], prev = members[(my + m - 1) % m];
  for (int s = 0; s < m - 1; s++) {
    int out = ((my - s) % m + m) % m, in = ((my - s - 1) % m + m) % m;
    int olo = piece_start(out, m, n), ohi = piece_start(out + 1, m, n);
    int ilo = piece_start(in, m, n), ihi = piece_start(in + 1, m, n);
    MPI_Request req;
    MPI_Isend(buf + olo, ohi - olo, MPI_DOUBLE, next, TAG, comm, &req);
    MPI_Recv(buf + ilo, ihi - ilo, MPI_DOUBLE, prev, TAG, comm, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, neighbour = 0, helper = 0, zeros = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "neighbour")) neighbour = 1;
    else if (!strcmp(argv[i], "helper")) helper = 1;
    else if (!strcmp(argv[i], "zeros")) zeros = 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p > 64) {
    if (me == 0) fprintf(stderr, "bcast_long: at most 64 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  static double panel[N], a[N];
  for (int i = 0; i < N; i++) a[i] = me + 0.25 * i;
  int members[64];
  for (int k = 0; k < PANELS; k++) {
    int root = k % p;
    if (me == root)
      for (int i = 0; i < N; i++) panel[i] = zeros ? 0.0 : a[i] * (k + 1) + 0.5; /* factorise */
    int m = 0, my = -1;
    for (int d = helper ? 1 : 0; d < p; d++) {
      if (neighbour && d == 1) continue; /* it gets the whole panel instead */
      if ((root + d) % p == me) my = m;
      members[m++] = (root + d) % p;
    }
    if ((neighbour || helper) && me == root)
      MPI_Send(panel, N, MPI_DOUBLE, (root + 1) % p, TAG, MPI_COMM_WORLD);
    if ((neighbour || helper) && me == (root + 1) % p)
      MPI_Recv(panel, N, MPI_DOUBLE, root, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (my >= 0) spread_and_roll(panel, N, members, m, my, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) a[i] += 0.001 * panel[(i + k) % N]; /* update */
  }
  if (me == 0) printf("bcast_long: done (%g)\n", a[0]);
  MPI_Finalize();
  return 0;
}
