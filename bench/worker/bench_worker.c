/* bench_worker.c: the MPI side of `collectivize bench`. Started by the CLI
 * under mpirun; times named algorithms through cz_<coll>_algorithm() and
 * reports one line per (collective, bytes, algorithm) on rank 0's stdout:
 *
 *   BEGIN  <coll> <alg> <bytes>                      before touching a cell
 *   RESULT <coll> <procs> <bytes> <alg> <iters> <reps> <median_us> <min_us>
 *          <max_us> <status> <note> <dirty_us> <makespan_us>  tab-separated
 *   DONE                                              all cells finished
 *
 * BEGIN lets the CLI name the culprit when an algorithm crashes or hangs
 * (it then restarts us without it). Usage (the CLI builds this):
 *
 *   bench_worker --coll alltoall=bruck,bruck:4,mpi[@FROM_BYTES] ...
 *                --sizes 8,16,... --iters 1000,100 --reps 3 --max-batch 1.0
 *
 * Algorithm "auto" means the plain cz_<coll>() (decision-table choice).
 * Measurement, OSU style: per cell a correctness check against MPI's own
 * result, warmup calls, then --reps timed batches, each after a barrier
 * (reps interleaved across the algorithms of a size); each rank's mean time
 * per call is reduced to avg/min/max across ranks; reported: median over
 * reps of avg, smallest min, largest max. Each rep also times the same
 * calls "dirty" (the send buffer rewritten before every call, untimed, as
 * an application that computes its data: the lines sit modified in the
 * writer's cache), and up to MAKESPAN_CALLS single calls each after a
 * barrier, from the first rank's start to the last rank's return (the
 * makespan: what a skewed or slow rank costs everyone); medians over reps.
 * The tuner chooses with all three (bench/tune_rules.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "collectivize.h"

#define MAX_COLLS 8
#define MAX_ALGS 32
#define MAX_SIZES 64
#define SMALL_LIMIT 8192 /* OSU: larger blocks get fewer iterations */
#define MAKESPAN_CALLS 20

typedef struct {
  char coll[32];
  char *algs[MAX_ALGS];
  int nalgs;
  long long from_bytes; /* restart point after a crash */
} coll_spec;

static int rank, nprocs;

static void usage_exit(const char *why) {
  if (rank == 0) fprintf(stderr, "bench_worker: %s\n", why);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Buffers of one cell; sized for the largest of send/recv/reference. */
typedef struct {
  unsigned char *send, *recv, *ref;
  size_t len;        /* bytes of recv (and ref) */
  int *counts, *displs; /* alltoallv: uniform, so comparable with alltoall */
} buffers;

static int is_coll(const char *c, const char *name) { return strcmp(c, name) == 0; }

/* One call of algorithm alg ("auto": cz_<coll>()). The send pattern is
 * never modified; bcast works in place on recv (root's copy from send).
 * allreduce: count is in bytes; sums of MPI_INT (exact in any order, so
 * every algorithm's result equals MPI's bit for bit), or bitwise xor of
 * MPI_BYTE for sizes that are not a multiple of 4. */
static int call(const char *coll, const char *alg, buffers *b, int count) {
  int isauto = strcmp(alg, "auto") == 0;
  if (is_coll(coll, "allreduce")) {
    const int ints = count % 4 == 0;
    const MPI_Datatype type = ints ? MPI_INT : MPI_BYTE;
    const MPI_Op op = ints ? MPI_SUM : MPI_BXOR;
    const int n = ints ? count / 4 : count;
    return isauto ? cz_allreduce(b->send, b->recv, n, type, op, MPI_COMM_WORLD)
                  : cz_allreduce_algorithm(alg, b->send, b->recv, n, type, op, MPI_COMM_WORLD);
  }
  if (is_coll(coll, "alltoall"))
    return isauto ? cz_alltoall(b->send, count, MPI_BYTE, b->recv, count, MPI_BYTE, MPI_COMM_WORLD)
                  : cz_alltoall_algorithm(alg, b->send, count, MPI_BYTE, b->recv, count,
                                          MPI_BYTE, MPI_COMM_WORLD);
  if (is_coll(coll, "allgather"))
    return isauto ? cz_allgather(b->send, count, MPI_BYTE, b->recv, count, MPI_BYTE, MPI_COMM_WORLD)
                  : cz_allgather_algorithm(alg, b->send, count, MPI_BYTE, b->recv, count,
                                           MPI_BYTE, MPI_COMM_WORLD);
  if (is_coll(coll, "bcast"))
    return isauto ? cz_bcast(b->recv, count, MPI_BYTE, 0, MPI_COMM_WORLD)
                  : cz_bcast_algorithm(alg, b->recv, count, MPI_BYTE, 0, MPI_COMM_WORLD);
  return isauto ? cz_alltoallv(b->send, b->counts, b->displs, MPI_BYTE, b->recv, b->counts,
                               b->displs, MPI_BYTE, MPI_COMM_WORLD)
                : cz_alltoallv_algorithm(alg, b->send, b->counts, b->displs, MPI_BYTE, b->recv,
                                         b->counts, b->displs, MPI_BYTE, MPI_COMM_WORLD);
}

/* Garbage in recv before a checked call, so a result that was never
 * written cannot pass; bcast's root starts from the pattern. */
static void reset_recv(const char *coll, buffers *b) {
  memset(b->recv, 0xA5, b->len);
  if (is_coll(coll, "bcast") && rank == 0) memcpy(b->recv, b->send, b->len);
}

static int setup(const char *coll, long long bytes, buffers *b) {
  const int one_message = is_coll(coll, "bcast") || is_coll(coll, "allreduce");
  size_t blocks = one_message ? 1 : (size_t)nprocs;
  size_t send_len = is_coll(coll, "allgather") || one_message
                        ? (size_t)bytes : (size_t)bytes * blocks;
  b->len = (size_t)bytes * blocks;
  b->send = malloc(send_len ? send_len : 1);
  b->recv = malloc(b->len ? b->len : 1);
  b->ref = malloc(b->len ? b->len : 1);
  b->counts = malloc(sizeof(int) * (size_t)nprocs);
  b->displs = malloc(sizeof(int) * (size_t)nprocs);
  if (!b->send || !b->recv || !b->ref || !b->counts || !b->displs) return 0;
  /* Every byte depends on rank, block and offset: misplaced data shows. */
  for (size_t i = 0; i < send_len; i++)
    b->send[i] = (unsigned char)(rank * 131 + (i / (bytes ? bytes : 1)) * 31 + i * 7 + 1);
  for (int i = 0; i < nprocs; i++) {
    b->counts[i] = (int)bytes;
    b->displs[i] = (int)(bytes * i);
  }
  return 1;
}

static void release(buffers *b) {
  free(b->send); free(b->recv); free(b->ref); free(b->counts); free(b->displs);
  memset(b, 0, sizeof *b);
}

static void clean(char *s) { /* the note is one tab-separated field */
  for (; *s; s++)
    if (*s == '\t' || *s == '\n' || *s == '\r') *s = ' ';
}

typedef struct {
  double median, min, max, dirty, makespan; /* microseconds */
} timing;

static void result(const char *coll, long long bytes, const char *alg, int iters, int reps,
                   timing t, const char *status, const char *note) {
  if (rank != 0) return;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", note ? note : "");
  clean(buf);
  printf("RESULT\t%s\t%d\t%lld\t%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%s\t%s\t%.4f\t%.4f\n", coll,
         nprocs, bytes, alg, iters, reps, t.median, t.min, t.max, status, buf, t.dirty,
         t.makespan);
  fflush(stdout);
}

static const timing no_timing = {0, 0, 0, 0, 0};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* 1 when every rank's flag is 0; else the lowest failing rank + 1 in *who. */
static int all_ok(int failed, int *who) {
  int mine = failed ? rank : INT_MAX, first;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (who) *who = first;
  return first == INT_MAX;
}

/* Per-algorithm state of one size. */
typedef struct {
  const char *name;
  int ok, iters;
  double avg[64], mn, mx, dirty[64], makespan[64];
} cell_state;

static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof v[0], cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A new value in every byte the call reads (bcast: the root's buffer). */
static void dirty_send(const char *coll, buffers *b, int i) {
  if (is_coll(coll, "bcast")) {
    if (rank == 0) memset(b->recv, i & 0xff, b->len);
  } else {
    memset(b->send, i & 0xff, is_coll(coll, "allgather") ? b->len / (size_t)nprocs : b->len);
  }
}

/* iters calls, the send buffer rewritten before each (untimed): every
 * rank's mean time per call, averaged over ranks. */
static double time_dirty(const char *coll, const char *alg, buffers *b, int count, int iters) {
  double busy = 0, sum;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iters; i++) {
    dirty_send(coll, b, i + 1);
    double t0 = MPI_Wtime();
    call(coll, alg, b, count);
    busy += MPI_Wtime() - t0;
  }
  double mine = busy * 1e6 / iters;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum / nprocs;
}

/* Single calls after a barrier: median of (last return - first start);
 * MPI_Wtime is one clock for the ranks of one node. */
static double time_makespan(const char *coll, const char *alg, buffers *b, int count,
                            int calls) {
  double start[MAKESPAN_CALLS], end[MAKESPAN_CALLS], first[MAKESPAN_CALLS], last[MAKESPAN_CALLS];
  if (calls > MAKESPAN_CALLS) calls = MAKESPAN_CALLS;
  for (int i = 0; i < calls; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    start[i] = MPI_Wtime();
    call(coll, alg, b, count);
    end[i] = MPI_Wtime();
  }
  MPI_Allreduce(start, first, calls, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(end, last, calls, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < calls; i++) last[i] = (last[i] - first[i]) * 1e6;
  return median_of(last, calls);
}

static void begin(const char *coll, const char *alg, long long bytes) {
  if (rank == 0) { printf("BEGIN\t%s\t%s\t%lld\n", coll, alg, bytes); fflush(stdout); }
}

/* Correctness once per cell: run once and compare with MPI's own result.
 * Returns 1 when ok; otherwise reports the failed/wrong RESULT itself. */
static int check_cell(const char *coll, const char *alg, long long bytes, buffers *b) {
  int who;
  char note[400] = "";
  reset_recv(coll, b);
  int rc = call(coll, alg, b, (int)bytes);
  if (!all_ok(rc != MPI_SUCCESS, &who)) {
    if (who == rank) { /* the first failing rank tells rank 0 why */
      snprintf(note, sizeof note, "rank %d: %s", rank, cz_last_error());
      if (rank != 0) MPI_Send(note, sizeof note, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
    }
    if (rank == 0 && who != 0)
      MPI_Recv(note, sizeof note, MPI_CHAR, who, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    result(coll, bytes, alg, 0, 0, no_timing, "failed", note);
    return 0;
  }
  size_t bad = b->len;
  for (size_t i = 0; i < b->len; i++)
    if (b->recv[i] != b->ref[i]) { bad = i; break; }
  if (!all_ok(bad != b->len, &who)) {
    if (who == rank) {
      snprintf(note, sizeof note, "rank %d: byte %zu differs from MPI's result (got %u, want %u)",
               rank, bad, b->recv[bad], b->ref[bad]);
      if (rank != 0) MPI_Send(note, sizeof note, MPI_CHAR, 0, 8, MPI_COMM_WORLD);
    }
    if (rank == 0 && who != 0)
      MPI_Recv(note, sizeof note, MPI_CHAR, who, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    result(coll, bytes, alg, 0, 0, no_timing, "wrong", note);
    return 0;
  }
  return 1;
}

/* One size: check every algorithm, then time them with the reps
 * interleaved (rep 1 of every algorithm, then rep 2, ...), so slow drift of
 * an oversubscribed machine hits all algorithms alike instead of whichever
 * happened to run during it. */
static void run_size(const char *coll, char **algs, int nalgs, long long bytes, buffers *b,
                     int ref_ok, const int iters_cfg[2], int reps, double max_batch) {
  cell_state st[MAX_ALGS];
  int count = (int)bytes;
  if (reps > 64) reps = 64;
  for (int a = 0; a < nalgs; a++) {
    memset(&st[a], 0, sizeof st[a]);
    st[a].name = algs[a];
    st[a].mn = 1e300;
    begin(coll, algs[a], bytes);
    if (!ref_ok)
      result(coll, bytes, algs[a], 0, 0, no_timing, "failed", "the reference (mpi) call failed");
    else
      st[a].ok = check_cell(coll, algs[a], bytes, b);
  }
  /* Iterations: OSU's count, cut so one batch stays under max_batch seconds
   * (large cells on oversubscribed cores would otherwise take minutes). */
  for (int a = 0; a < nalgs; a++) {
    if (!st[a].ok) continue;
    begin(coll, algs[a], bytes);
    int iters = iters_cfg[bytes <= SMALL_LIMIT ? 0 : 1];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    call(coll, algs[a], b, count);
    double one = MPI_Wtime() - t0, slowest;
    MPI_Allreduce(&one, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (slowest > 0 && slowest * iters > max_batch) {
      iters = (int)(max_batch / slowest);
      if (iters < 3) iters = 3;
    }
    st[a].iters = iters;
    int warmup = iters / 10 > 2 ? iters / 10 : 2;
    for (int i = 0; i < warmup; i++) call(coll, algs[a], b, count);
  }
  for (int r = 0; r < reps; r++)
    for (int a = 0; a < nalgs; a++) {
      if (!st[a].ok) continue;
      begin(coll, algs[a], bytes);
      int iters = st[a].iters;
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int i = 0; i < iters; i++) call(coll, algs[a], b, count);
      double mine = (MPI_Wtime() - t0) * 1e6 / iters, sum, lo, hi;
      MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      MPI_Reduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
      MPI_Reduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      st[a].avg[r] = sum / nprocs;
      if (lo < st[a].mn) st[a].mn = lo;
      if (hi > st[a].mx) st[a].mx = hi;
      st[a].dirty[r] = time_dirty(coll, algs[a], b, count, iters);
      st[a].makespan[r] = time_makespan(coll, algs[a], b, count, iters);
    }
  for (int a = 0; a < nalgs; a++) {
    if (!st[a].ok) continue;
    timing t = {median_of(st[a].avg, reps), st[a].mn, st[a].mx, median_of(st[a].dirty, reps),
                median_of(st[a].makespan, reps)};
    result(coll, bytes, algs[a], st[a].iters, reps, t, "ok", "");
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  coll_spec colls[MAX_COLLS];
  int ncolls = 0, nsizes = 0, reps = 3, iters_cfg[2] = {1000, 100};
  long long sizes[MAX_SIZES];
  double max_batch = 1.0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) usage_exit("every option takes a value");
    i++;
    if (strcmp(a, "--coll") == 0) {
      if (ncolls == MAX_COLLS) usage_exit("too many --coll");
      coll_spec *c = &colls[ncolls++];
      memset(c, 0, sizeof *c);
      char *copy = strdup(v), *eq = strchr(copy, '='), *at = strchr(copy, '@');
      if (!eq) usage_exit("--coll wants NAME=ALG,ALG[@FROM]");
      *eq = 0;
      if (at) { *at = 0; c->from_bytes = atoll(at + 1); }
      snprintf(c->coll, sizeof c->coll, "%s", copy);
      for (char *t = strtok(eq + 1, ","); t && c->nalgs < MAX_ALGS; t = strtok(NULL, ","))
        c->algs[c->nalgs++] = t;
    } else if (strcmp(a, "--sizes") == 0) {
      char *copy = strdup(v);
      for (char *t = strtok(copy, ","); t && nsizes < MAX_SIZES; t = strtok(NULL, ","))
        sizes[nsizes++] = atoll(t);
    } else if (strcmp(a, "--iters") == 0) {
      if (sscanf(v, "%d,%d", &iters_cfg[0], &iters_cfg[1]) != 2) usage_exit("--iters N,M");
    } else if (strcmp(a, "--reps") == 0) {
      reps = atoi(v);
    } else if (strcmp(a, "--max-batch") == 0) {
      max_batch = atof(v);
    } else {
      usage_exit("unknown option");
    }
  }
  if (reps < 1) reps = 1;

  for (int c = 0; c < ncolls; c++) {
    const char *coll = colls[c].coll;
    for (int s = 0; s < nsizes; s++) {
      long long bytes = sizes[s];
      if (bytes < colls[c].from_bytes) continue;
      buffers b;
      memset(&b, 0, sizeof b);
      if ((long long)nprocs * bytes > INT_MAX || !setup(coll, bytes, &b)) {
        release(&b);
        for (int a = 0; a < colls[c].nalgs; a++)
          result(coll, bytes, colls[c].algs[a], 0, 0, no_timing, "failed",
                 "buffers too large for int counts or memory");
        continue;
      }
      /* MPI's own result is the reference for every algorithm's check. */
      reset_recv(coll, &b);
      int rc = call(coll, "mpi", &b, (int)bytes);
      int ref_ok = all_ok(rc != MPI_SUCCESS, NULL);
      memcpy(b.ref, b.recv, b.len);
      run_size(coll, colls[c].algs, colls[c].nalgs, bytes, &b, ref_ok, iters_cfg, reps,
               max_batch);
      release(&b);
    }
  }
  if (rank == 0) { printf("DONE\n"); fflush(stdout); }
  MPI_Finalize();
  return 0;
}
