/* allreduce_probe.c: would a shared-memory allreduce pay on one node?
 * (issue 9: "a reduce/allreduce if you find it pays"). A measurement, not
 * the runtime: two shared-window allreduces written here beside
 * MPI_Allreduce, same launch, interleaved, OSU latency (calls separated by
 * barriers; each rank's mean per call, averaged over ranks), medians.
 *
 *   allreduce_probe [--sizes 8,64,...] [--reps 7] [--header 1]
 *
 * Sum of ints (so every result can be compared bit for bit with MPI's).
 * Each rank's window region: a round flag (one cache line) and two halves
 * (double buffering by round parity; safe with flags alone because every
 * rank reads every other rank's half each round, as in the runtime's
 * shm/flags.c). Waiting: spin, then sched_yield.
 *  - all: write my vector into my half, publish; every rank reduces all P
 *    vectors itself, in rank order (identical results everywhere).
 *    1 round; P·n bytes read and reduced per rank.
 *  - rs: reduce-scatter then allgather: write my vector, publish; reduce
 *    my 1/P slice over all P vectors into my other half, publish; copy all
 *    P slices. 2 rounds; 2·n bytes read and n reduced per rank.
 * Output: CSV on rank 0's stdout. */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#define MAXREPS 31
static int rank, nprocs;
static MPI_Win win;
static char **region;
static size_t half;
static unsigned long long epoch;

typedef struct { _Atomic unsigned long long v; char pad[56]; } flag_t;

static flag_t *flag_of(int r) { return (flag_t *)region[r]; }
static char *half_of(int r, unsigned long long e) { return region[r] + 64 + (e & 1) * half; }

static void publish(unsigned long long e) { atomic_store(&flag_of(rank)->v, e + 1); }
static void wait_all(unsigned long long e) {
  for (int r = 0; r < nprocs; r++)
    for (int i = 0; atomic_load_explicit(&flag_of(r)->v, memory_order_acquire) < e + 1; i++)
      if (i > 64) sched_yield();
}

static void shm_all(const int *in, int *out, int n) {
  const unsigned long long e = epoch++;
  memcpy(half_of(rank, e), in, (size_t)n * sizeof(int));
  publish(e);
  wait_all(e);
  memcpy(out, half_of(0, e), (size_t)n * sizeof(int));
  for (int r = 1; r < nprocs; r++) {
    const int *v = (const int *)half_of(r, e);
    for (int i = 0; i < n; i++) out[i] += v[i];
  }
}

static void shm_rs(const int *in, int *out, int n) {
  const unsigned long long e = epoch;
  epoch += 2;
  memcpy(half_of(rank, e), in, (size_t)n * sizeof(int));
  publish(e);
  wait_all(e);
  const int per = (n + nprocs - 1) / nprocs;
  const int lo = rank * per < n ? rank * per : n, hi = lo + per < n ? lo + per : n;
  int *mine = (int *)half_of(rank, e + 1);
  memcpy(mine + lo, (const int *)half_of(0, e) + lo, (size_t)(hi - lo) * sizeof(int));
  for (int r = 1; r < nprocs; r++) {
    const int *v = (const int *)half_of(r, e);
    for (int i = lo; i < hi; i++) mine[i] += v[i];
  }
  publish(e + 1);
  wait_all(e + 1);
  for (int r = 0; r < nprocs; r++) {
    const int a = r * per < n ? r * per : n, b = a + per < n ? a + per : n;
    memcpy(out + a, (const int *)half_of(r, e + 1) + a, (size_t)(b - a) * sizeof(int));
  }
}

static void run(int alg, const int *in, int *out, int n) {
  if (alg == 0) MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  else if (alg == 1) shm_all(in, out, n);
  else shm_rs(in, out, n);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  long long sizes[64];
  int nsizes = 0, reps = 7, header = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--sizes"))
      for (char *t = strtok(strdup(argv[i + 1]), ","); t && nsizes < 64; t = strtok(NULL, ","))
        sizes[nsizes++] = atoll(t);
    else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--header")) header = atoi(argv[i + 1]);
  }
  if (reps > MAXREPS) reps = MAXREPS;
  if (!nsizes) sizes[nsizes++] = 8;
  size_t maxb = 64;
  for (int s = 0; s < nsizes; s++)
    if ((size_t)sizes[s] > maxb) maxb = (size_t)sizes[s];
  half = (maxb + 63) / 64 * 64;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int nsize;
  MPI_Comm_size(node, &nsize);
  if (nsize != nprocs) {
    if (!rank) fprintf(stderr, "allreduce_probe: one node only\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *base;
  MPI_Win_allocate_shared((MPI_Aint)(64 + 2 * half), 1, MPI_INFO_NULL, node, &base, &win);
  region = malloc(sizeof(char *) * (size_t)nprocs);
  for (int r = 0; r < nprocs; r++) {
    MPI_Aint sz;
    int du;
    MPI_Win_shared_query(win, r, &sz, &du, &region[r]);
  }
  memset(base, 0, 64);
  MPI_Barrier(MPI_COMM_WORLD);
  const char *names[] = {"mpi", "shm_all", "shm_rs"};
  if (!rank && header) printf("collective,procs,bytes,algorithm,iters,osu_us,osu_ratio_to_mpi,status\n");
  for (int s = 0; s < nsizes; s++) {
    const int n = (int)(sizes[s] / (long long)sizeof(int)) > 0 ? (int)(sizes[s] / (long long)sizeof(int)) : 1;
    int *in = malloc((size_t)n * sizeof(int)), *out = malloc((size_t)n * sizeof(int)),
        *ref = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) in[i] = rank * 1000003 + i * 7;
    MPI_Allreduce(in, ref, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int ok[3];
    for (int a = 0; a < 3; a++) {
      memset(out, 0xA5, (size_t)n * sizeof(int));
      run(a, in, out, n);
      int bad = memcmp(out, ref, (size_t)n * sizeof(int)) != 0, any;
      MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      ok[a] = !any;
    }
    /* calls per batch: ~0.1 s of the slowest algorithm, 3..50 */
    int iters = 50;
    double osu[3][MAXREPS];
    for (int r = 0; r < reps; r++)
      for (int a = 0; a < 3; a++) {
        double busy = 0, sum;
        for (int i = 0; i < iters; i++) {
          MPI_Barrier(MPI_COMM_WORLD);
          double t0 = MPI_Wtime();
          run(a, in, out, n);
          busy += MPI_Wtime() - t0;
        }
        double mine = busy * 1e6 / iters;
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        osu[a][r] = sum / nprocs;
      }
    double med[3];
    for (int a = 0; a < 3; a++) {
      qsort(osu[a], (size_t)reps, sizeof(double), cmp);
      med[a] = osu[a][reps / 2];
    }
    for (int a = 0; a < 3 && !rank; a++)
      printf("allreduce,%d,%lld,%s,%d,%.3f,%.3f,%s\n", nprocs, sizes[s], names[a], iters, med[a],
             med[a] / med[0], ok[a] ? "ok" : "wrong");
    fflush(stdout);
    free(in);
    free(out);
    free(ref);
  }
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
