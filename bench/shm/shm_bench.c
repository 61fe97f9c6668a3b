/* shm_bench.c: issue 9's benchmark: shared-memory collectives beside the
 * MPI library's own in the same run (run.sh drives it over P).
 *
 *   shm_bench --coll alltoall|allgather|bcast|allreduce --algs mpi,shm_pull,auto,...
 *             [--sizes 8,64,...] [--reps 7] [--budget 0.15] [--header 1]
 *
 * Algorithms are cz_<coll>_algorithm names; "auto" is cz_<coll> (the
 * decision table); NAME_zc runs NAME with the send data in a cz_buffer_alloc
 * buffer (zero copy: alltoall shm_pull_zc, allgather shm_zc). Every
 * algorithm's result is first compared with MPI's. "sync_floor" moves no
 * data: each rank raises its flag in a shared window and waits (spinning,
 * then yielding) until every rank it depends on has raised its own (all of
 * them; for bcast, the root). No collective with that dependence can wait
 * for less, so its latency over MPI's is the lowest ratio this machine
 * allows any algorithm in that cell.
 * Per (size, mode), reps interleaved across algorithms (rep 1 of each, then
 * rep 2, ...); medians over reps reported:
 *  - osu_us: OSU's collective latency: calls separated by barriers, each
 *    rank's mean time per call, averaged over ranks (up to 50 calls);
 *  - makespan_us: the same calls, from the first rank's start to the last
 *    rank's return (MPI_Wtime is one clock on one node), median;
 *  - stream_us: a batch of calls back to back (no barriers), each rank's
 *    mean time per call averaged over ranks (a root that may run ahead of
 *    its readers, as in a loop of broadcasts, shows here);
 * in two modes: clean (the send data is the same every call) and dirty (the
 * send buffer rewritten just before every call, untimed, as an application
 * that computes its data does: the lines sit dirty in the writer's cache).
 * The memory-copy bound: every byte a collective must deliver (P·P·n for
 * alltoall and allgather, P·n for bcast and allreduce) copied once at the node's copy
 * bandwidth, measured here with all ranks copying their share at once
 * (same buffer sizes as the collective, so caches behave alike).
 * Output: CSV on rank 0's stdout. */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "collectivize.h"

#define MAXA 8
#define MAXREPS 31
#define MAXCALLS 4096
static int rank, nprocs;

typedef struct {
  const char *coll;
  size_t send_len, recv_len;
  unsigned char *send, *recv, *ref;
  unsigned char *shared; /* a copy of send in cz_buffer_alloc memory */
} bufs;

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* The synchronisation floor (see the header): one cache line per rank. */
static void sync_floor(const char *coll) {
  enum { LINE = 64, SPINS = 64, STRIDE = LINE / sizeof(unsigned long) };
  static _Atomic unsigned long *flags; /* rank j's flag: flags[j * STRIDE] */
  static unsigned long round;
  if (!flags) {
    MPI_Win win; /* kept to the end of the run */
    void *base;
    MPI_Aint size;
    int unit;
    MPI_Win_allocate_shared(LINE, LINE, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_shared_query(win, 0, &size, &unit, &base);
    flags = base;
    atomic_store(&flags[rank * STRIDE], 0);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  round++;
  atomic_store_explicit(&flags[rank * STRIDE], round, memory_order_release);
  const int waits_for = is(coll, "bcast") ? 1 : nprocs;
  for (int j = 0; j < waits_for; j++)
    for (int i = 0; atomic_load_explicit(&flags[j * STRIDE], memory_order_acquire) < round; i++)
      if (i >= SPINS) sched_yield();
}

static int call(const char *coll, const char *alg, bufs *b, int n) {
  char base[64];
  const size_t len = strlen(alg);
  if (len > 3 && len < sizeof base && is(alg + len - 3, "_zc")) {
    memcpy(base, alg, len - 3);
    base[len - 3] = '\0';
    unsigned char *plain = b->send;
    b->send = b->shared;
    int rc = call(coll, base, b, n);
    b->send = plain;
    return rc;
  }
  if (is(alg, "sync_floor")) {
    sync_floor(coll);
    return MPI_SUCCESS;
  }
  const int autosel = is(alg, "auto");
  if (is(coll, "alltoall"))
    return autosel ? cz_alltoall(b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE, MPI_COMM_WORLD)
                   : cz_alltoall_algorithm(alg, b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE,
                                           MPI_COMM_WORLD);
  if (is(coll, "allreduce")) /* n bytes as n/4 ints, summed */
    return autosel ? cz_allreduce(b->send, b->recv, n / 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
                   : cz_allreduce_algorithm(alg, b->send, b->recv, n / 4, MPI_INT, MPI_SUM,
                                            MPI_COMM_WORLD);
  if (is(coll, "allgather"))
    return autosel ? cz_allgather(b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE, MPI_COMM_WORLD)
                   : cz_allgather_algorithm(alg, b->send, n, MPI_BYTE, b->recv, n, MPI_BYTE,
                                            MPI_COMM_WORLD);
  /* bcast from rank 0, on the send buffer (the root's data stays put). */
  void *buf = rank == 0 ? (void *)b->send : (void *)b->recv;
  return autosel ? cz_bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD)
                 : cz_bcast_algorithm(alg, buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* The check's pattern (salt 0), or a fast rewrite of every byte (dirty). */
static void rewrite(bufs *b, unsigned salt) {
  if (salt) {
    memset(b->send, (int)(salt & 0xff), b->send_len);
    memset(b->shared, (int)(salt & 0xff), b->send_len);
    return;
  }
  for (size_t i = 0; i < b->send_len; i++)
    b->send[i] = (unsigned char)(rank * 131 + i * 7 + 1);
  memcpy(b->shared, b->send, b->send_len);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 1 if alg gives MPI's result on every rank (sync_floor moves nothing). */
static int check(const char *coll, const char *alg, bufs *b, int n) {
  if (is(alg, "sync_floor")) return call(coll, alg, b, n) == MPI_SUCCESS;
  memset(b->recv, 0xA5, b->recv_len);
  int rc = call(coll, alg, b, n);
  int bad = rc != MPI_SUCCESS ||
            (!is(coll, "bcast") || rank != 0 ? memcmp(b->recv, b->ref, b->recv_len) != 0 : 0);
  int any;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return !any;
}

/* One rep: iters calls back to back after one barrier, each rank's mean
 * time per call (the dirty rewrite between calls untimed): stream; then up
 * to 50 calls each after a barrier: OSU latency (mean per rank, averaged)
 * and makespan (median). */
static void batch(const char *coll, const char *alg, bufs *b, int n, int iters, int dirty,
                  double *stream, double *osu, double *makespan) {
  static double start[MAXCALLS], end[MAXCALLS], first[MAXCALLS], last[MAXCALLS];
  double busy = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iters; i++) {
    if (dirty) rewrite(b, (unsigned)i + 1);
    double t0 = MPI_Wtime();
    call(coll, alg, b, n);
    busy += MPI_Wtime() - t0;
  }
  double mine = busy * 1e6 / iters, sum;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *stream = sum / nprocs;
  const int singles = iters < 50 ? iters : 50;
  for (int i = 0; i < singles; i++) {
    if (dirty) rewrite(b, (unsigned)i + 1);
    MPI_Barrier(MPI_COMM_WORLD);
    start[i] = MPI_Wtime();
    call(coll, alg, b, n);
    end[i] = MPI_Wtime();
  }
  busy = 0;
  for (int i = 0; i < singles; i++) busy += end[i] - start[i];
  mine = busy * 1e6 / singles;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *osu = sum / nprocs;
  MPI_Allreduce(start, first, singles, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(end, last, singles, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < singles; i++) last[i] = (last[i] - first[i]) * 1e6;
  *makespan = median(last, singles);
}

/* Node copy bandwidth (bytes/s) for per-rank copies of `bytes`: all ranks
 * at once, each copying its share, best of a few batches. */
static double copy_bandwidth(size_t bytes) {
  if (bytes < 64) bytes = 64;
  unsigned char *src = malloc(bytes), *dst = malloc(bytes);
  memset(src, rank, bytes);
  memset(dst, 0, bytes);
  int iters = (int)(((size_t)64 << 20) / bytes / (size_t)nprocs);
  if (iters < 2) iters = 2;
  if (iters > 2000) iters = 2000;
  double best = 0;
  for (int r = 0; r < 5; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
      src[(size_t)i % bytes] = (unsigned char)i;
      memcpy(dst, src, bytes);
    }
    double mine = MPI_Wtime(), t_first, t_last;
    MPI_Allreduce(&t0, &t_first, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &t_last, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double bw = (double)bytes * iters * nprocs / (t_last - t_first);
    if (bw > best) best = bw;
  }
  volatile unsigned char sink = dst[bytes - 1];
  (void)sink;
  free(src);
  free(dst);
  return best;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const char *coll = "alltoall";
  char *algs[MAXA];
  int nalgs = 0, reps = 7, header = 1;
  long long sizes[64];
  int nsizes = 0;
  double budget = 0.15; /* seconds per batch */
  for (int i = 1; i + 1 < argc; i += 2) {
    if (is(argv[i], "--coll")) coll = argv[i + 1];
    else if (is(argv[i], "--algs"))
      for (char *t = strtok(strdup(argv[i + 1]), ","); t && nalgs < MAXA; t = strtok(NULL, ","))
        algs[nalgs++] = t;
    else if (is(argv[i], "--sizes"))
      for (char *t = strtok(strdup(argv[i + 1]), ","); t && nsizes < 64; t = strtok(NULL, ","))
        sizes[nsizes++] = atoll(t);
    else if (is(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else if (is(argv[i], "--budget")) budget = atof(argv[i + 1]);
    else if (is(argv[i], "--header")) header = atoi(argv[i + 1]);
  }
  if (reps > MAXREPS) reps = MAXREPS;
  if (rank == 0 && header)
    printf("collective,procs,bytes,mode,algorithm,iters,osu_us,makespan_us,osu_ratio_to_mpi,"
           "makespan_ratio_to_mpi,copy_bound_us,osu_ratio_to_bound,makespan_ratio_to_bound,"
           "copy_gbps,stream_us,stream_ratio_to_mpi,status\n");
  for (int s = 0; s < nsizes; s++) {
    const int n = (int)sizes[s];
    bufs b = {coll, 0, 0, NULL, NULL, NULL, NULL};
    const int blocks = is(coll, "bcast") || is(coll, "allreduce") ? 1 : nprocs;
    b.send_len = (size_t)n * (is(coll, "alltoall") ? nprocs : 1);
    b.recv_len = (size_t)n * blocks;
    b.send = malloc(b.send_len + 1);
    cz_buffer_alloc(MPI_COMM_WORLD, (MPI_Aint)b.send_len + 1, &b.shared);
    b.recv = malloc(b.recv_len + 1);
    b.ref = malloc(b.recv_len + 1);
    rewrite(&b, 0);
    memset(b.recv, 0xA5, b.recv_len);
    call(coll, "mpi", &b, n);
    memcpy(b.ref, b.recv, b.recv_len);
    /* Bytes delivered on the node, and its copy rate at this working set. */
    const double delivered = is(coll, "bcast") || is(coll, "allreduce") ? (double)nprocs * n
                                               : (double)nprocs * nprocs * n;
    const double bw = copy_bandwidth(b.recv_len);
    const double bound_us = delivered / bw * 1e6;
    int ok[MAXA], iters[MAXA];
    for (int a = 0; a < nalgs; a++) {
      ok[a] = check(coll, algs[a], &b, n);
      /* Calibrate: calls per batch within the budget (3..200), from the
       * fastest of three calls (one descheduled call must not decide). */
      double one = 1e30, slow;
      for (int i = 0; i < 3 && ok[a]; i++) {
        double t0 = MPI_Wtime();
        call(coll, algs[a], &b, n);
        double t = MPI_Wtime() - t0;
        if (t < one) one = t;
      }
      if (!ok[a]) one = 0;
      MPI_Allreduce(&one, &slow, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      iters[a] = slow > 0 ? (int)(budget / slow) : MAXCALLS;
      if (iters[a] < 3) iters[a] = 3;
      if (iters[a] > 200) iters[a] = 200;
    }
    for (int dirty = 0; dirty < 2; dirty++) {
      double osu[MAXA][MAXREPS], mk[MAXA][MAXREPS], st[MAXA][MAXREPS];
      for (int r = 0; r < reps; r++)
        for (int a = 0; a < nalgs; a++)
          if (ok[a])
            batch(coll, algs[a], &b, n, iters[a], dirty, &st[a][r], &osu[a][r], &mk[a][r]);
      double osu_med[MAXA], mk_med[MAXA], st_med[MAXA], osu_mpi = 0, mk_mpi = 0, st_mpi = 0;
      for (int a = 0; a < nalgs; a++) {
        if (!ok[a]) continue;
        osu_med[a] = median(osu[a], reps);
        mk_med[a] = median(mk[a], reps);
        st_med[a] = median(st[a], reps);
        if (is(algs[a], "mpi")) osu_mpi = osu_med[a], mk_mpi = mk_med[a], st_mpi = st_med[a];
      }
      for (int a = 0; a < nalgs && rank == 0; a++) {
        if (!ok[a]) {
          printf("%s,%d,%d,%s,%s,0,,,,,,,,,,,wrong\n", coll, nprocs, n,
                 dirty ? "dirty" : "clean", algs[a]);
          continue;
        }
        printf("%s,%d,%d,%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f,%.3f,%.3f,ok\n",
               coll, nprocs, n, dirty ? "dirty" : "clean", algs[a], iters[a], osu_med[a],
               mk_med[a], osu_mpi > 0 ? osu_med[a] / osu_mpi : 0,
               mk_mpi > 0 ? mk_med[a] / mk_mpi : 0, bound_us, osu_med[a] / bound_us,
               mk_med[a] / bound_us, bw / 1e9, st_med[a], st_mpi > 0 ? st_med[a] / st_mpi : 0);
      }
      fflush(stdout);
    }
    free(b.send);
    cz_buffer_free(b.shared);
    free(b.recv);
    free(b.ref);
  }
  MPI_Finalize();
  return 0;
}
