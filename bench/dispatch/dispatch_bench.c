/* dispatch_bench.c: what a cz_<coll> call costs beside the MPI call it
 * replaces, timed in the same run (bench/dispatch/run.sh drives it over P).
 *
 *   dispatch_bench [--colls alltoall,allgather,bcast,allreduce,alltoallv,plan]
 *                  [--sizes 8,64,...] [--rounds 9] [--budget 0.02]
 *                  [--header 1] [--tag NAME] [--null 1]
 *                  [--modes stream,barrier,paired] [--paired-barrier world|dup]
 *
 * Per (collective, bytes) the table's choice is recorded (`table`: "mpi"
 * means cz_ hands the call to the library, so any difference is the
 * dispatch), the cz_ result is checked against MPI's (a mismatch is
 * reported, never timed), then `rounds` rounds alternate the order (even
 * rounds MPI first, odd rounds cz_ first) in two modes:
 *  - stream: a batch of calls back to back after one barrier; a round's
 *    time is the slowest rank's mean per call (what a loop of small
 *    collectives pays);
 *  - barrier: up to 200 calls, each after a barrier, each timed alone; a
 *    round's time is the slowest rank's mean (OSU-style latency without the
 *    barrier's own cost);
 *  - paired (only when --modes asks for it): short batches of PAIRED_CALLS
 *    calls, each after a barrier, the three doors' batches in turn, their
 *    order rotating through all six permutations; a round's time per door
 *    is the slowest rank's interquartile mean over its batches (the mean of
 *    the middle half: the top quarter holds the batches a descheduled rank
 *    stretched, which dominate the other modes' means). Batches of the
 *    three doors a few microseconds apart see the same state of the
 *    machine, where the stream mode's are 20 ms apart. The barrier puts
 *    both ranks in step before every batch: calls timed one by one in turn
 *    did not do, as a blocking call's time holds its wait for the others,
 *    and at P = 2 the ranks fell into a rhythm that gave one door the
 *    waits (the null door read 1.03-1.65). The null door shows each
 *    mode's resolution.
 * A round's ratio is cz/MPI of that round; the CSV gives the median, min
 * and max ratio over rounds, the median absolute times, and the median of
 * the per-round difference in ns (at P = 1 this is the dispatch cost), and
 * for stream mode the same difference in CPU time of the calling threads
 * (robust when other jobs share the cores). Every round also times the MPI
 * call a second time: control_ratio_median (MPI/MPI, ideally 1.0) is the
 * launch's noise in that cell, and summary.py ignores launches whose
 * control is off by more than the margin it judges with.
 * --null 1: the cz_ door calls the MPI function too, so its ratio is the
 * method's own bias (cz_ is always timed between the two MPI doors) and
 * the spread a real difference must exceed. --null 2: the same call on a
 * duplicate of MPI_COMM_WORLD made here (what the library's collective
 * costs on another communicator, as cz_ calls it on its private one).
 * --paired-barrier dup: the paired mode's barriers on a duplicate of
 * MPI_COMM_WORLD, so that the MPI doors' communicator is not the one the
 * barrier has just warmed (the cz_ door's private duplicate never is).
 * Batch sizes aim at `budget` seconds per batch (agreed across ranks).
 * bytes: per block for alltoall, allgather, alltoallv and plan (every pair
 * exchanges the same count); the whole message for bcast and allreduce.
 * The data are MPI_INT (allreduce: MPI_SUM). "plan" is
 * cz_alltoallv_plan_execute of a plan made once, against MPI_Alltoallv.
 * Output: CSV on rank 0's stdout, with the 1-minute load average read before
 * and after each cell (the machine is shared: read ratios with it) and, at
 * P = 2 on one node, pair_rtt_ns: a cache line's round trip between the two
 * ranks measured after the cell (on the development VM 63-90 ns while the
 * host keeps the two vCPUs near, 240-370 ns while it keeps them far apart;
 * bench/README.md, "Cores far apart"); empty elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "collectivize.h"
#include "../trace/bench_tick.h"

#define MAXROUNDS 63
#define MAXCALLS 2000000
#define BARRIER_CALLS 200

static int rank, nprocs;
static volatile long *pair_flag; /* P = 2 on one node: the shared line */
static MPI_Win pair_win = MPI_WIN_NULL; /* its window, freed before MPI_Finalize */

typedef struct cell {
  const char *coll;
  int count;                   /* ints per block (or per message) */
  int *send, *recv, *ref;
  int *counts, *displs;        /* alltoallv: every block alike */
  size_t send_n, recv_n;       /* ints */
  cz_alltoallv_plan_t plan;
} cell;

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

static double load1(void) {
  double v = -1;
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (fscanf(f, "%lf", &v) != 1) v = -1;
    fclose(f);
  }
  return v;
}

/* One call: which 0 = MPI, 1 = cz_, 2 = MPI again (the control: the same
 * code timed twice, whose ratio is this launch's noise). Returns the MPI
 * error code. */
static int null_door; /* --null: door 1 calls MPI as well (2: on a dup) */
static MPI_Comm null_comm = MPI_COMM_NULL; /* --null 2: door 1's communicator */
/* The paired mode's barriers: MPI_COMM_WORLD, or with --paired-barrier dup
 * a duplicate of it, so that no door's communicator is the one the
 * barrier just used (the MPI doors' is, otherwise). */
static MPI_Comm paired_barrier_comm = MPI_COMM_WORLD;

static int call(cell *c, int which) {
  MPI_Comm world = MPI_COMM_WORLD;
  if (which == 1 && null_door == 2) world = null_comm;
  if (which == 2 || null_door) which = 0;
  void *s = c->send, *r = c->recv;
  const char *k = c->coll;
  if (is(k, "alltoall"))
    return which ? cz_alltoall(s, c->count, MPI_INT, r, c->count, MPI_INT,
                               world)
                 : MPI_Alltoall(s, c->count, MPI_INT, r, c->count, MPI_INT,
                                world);
  if (is(k, "allgather"))
    return which ? cz_allgather(s, c->count, MPI_INT, r, c->count, MPI_INT,
                                world)
                 : MPI_Allgather(s, c->count, MPI_INT, r, c->count, MPI_INT,
                                 world);
  if (is(k, "bcast"))
    return which ? cz_bcast(r, c->count, MPI_INT, 0, world)
                 : MPI_Bcast(r, c->count, MPI_INT, 0, world);
  if (is(k, "allreduce"))
    return which ? cz_allreduce(s, r, c->count, MPI_INT, MPI_SUM,
                                world)
                 : MPI_Allreduce(s, r, c->count, MPI_INT, MPI_SUM,
                                 world);
  if (is(k, "alltoallv"))
    return which ? cz_alltoallv(s, c->counts, c->displs, MPI_INT, r, c->counts,
                                c->displs, MPI_INT, world)
                 : MPI_Alltoallv(s, c->counts, c->displs, MPI_INT, r,
                                 c->counts, c->displs, MPI_INT,
                                 world);
  /* plan */
  return which ? cz_alltoallv_plan_execute(c->plan, s, r)
               : MPI_Alltoallv(s, c->counts, c->displs, MPI_INT, r, c->counts,
                               c->displs, MPI_INT, world);
}

static cz_collective table_coll(const char *k) {
  if (is(k, "alltoall")) return CZ_COLL_ALLTOALL;
  if (is(k, "allgather")) return CZ_COLL_ALLGATHER;
  if (is(k, "bcast")) return CZ_COLL_BCAST;
  if (is(k, "allreduce")) return CZ_COLL_ALLREDUCE;
  return CZ_COLL_ALLTOALLV;
}

static int setup(cell *c, const char *coll, long long bytes) {
  memset(c, 0, sizeof *c);
  c->coll = coll;
  c->count = (int)(bytes / (long long)sizeof(int));
  if (c->count < 1) c->count = 1;
  int per_rank = is(coll, "bcast") || is(coll, "allreduce") ? 1 : nprocs;
  c->send_n = (size_t)c->count * (size_t)(is(coll, "allgather") ? 1 : per_rank);
  c->recv_n = (size_t)c->count * (size_t)per_rank;
  c->send = malloc(c->send_n * sizeof(int));
  c->recv = malloc(c->recv_n * sizeof(int));
  c->ref = malloc(c->recv_n * sizeof(int));
  c->counts = malloc((size_t)nprocs * sizeof(int));
  c->displs = malloc((size_t)nprocs * sizeof(int));
  if (!c->send || !c->recv || !c->ref || !c->counts || !c->displs) return 1;
  for (size_t i = 0; i < c->send_n; i++) c->send[i] = rank * 1000003 + (int)i;
  for (int i = 0; i < nprocs; i++) {
    c->counts[i] = c->count;
    c->displs[i] = i * c->count;
  }
  if (is(coll, "plan") &&
      cz_alltoallv_plan_create(c->counts, c->displs, MPI_INT, c->counts,
                               c->displs, MPI_INT, MPI_COMM_WORLD,
                               &c->plan) != MPI_SUCCESS)
    return 1;
  return 0;
}

static void teardown(cell *c) {
  if (c->plan) cz_alltoallv_plan_free(&c->plan);
  free(c->send); free(c->recv); free(c->ref); free(c->counts); free(c->displs);
}

/* cz_ must deliver what MPI delivers (bcast: root's data everywhere). */
static int check(cell *c) {
  int bad = 0;
  if (is(c->coll, "bcast")) {
    for (size_t i = 0; i < c->recv_n; i++) c->recv[i] = rank == 0 ? (int)i : -1;
    bad |= call(c, 0) != MPI_SUCCESS;
    memcpy(c->ref, c->recv, c->recv_n * sizeof(int));
    for (size_t i = 0; i < c->recv_n; i++) c->recv[i] = rank == 0 ? (int)i : -1;
    bad |= call(c, 1) != MPI_SUCCESS;
  } else {
    memset(c->recv, 0xab, c->recv_n * sizeof(int));
    bad |= call(c, 0) != MPI_SUCCESS;
    memcpy(c->ref, c->recv, c->recv_n * sizeof(int));
    memset(c->recv, 0xcd, c->recv_n * sizeof(int));
    bad |= call(c, 1) != MPI_SUCCESS;
  }
  bad |= memcmp(c->ref, c->recv, c->recv_n * sizeof(int)) != 0;
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return any;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Slowest rank's mean seconds per call; *cpu: the largest per-call CPU time
 * of the calling threads (unlike wall time, not inflated when other jobs
 * take the core: on a loaded machine the dispatch cost reads best here). */
static double stream(cell *c, int which, int n, double *cpu) {
  MPI_Barrier(MPI_COMM_WORLD);
  double c0 = cpu_now(), t0 = MPI_Wtime();
  for (int i = 0; i < n; i++) call(c, which);
  double t[2] = {(MPI_Wtime() - t0) / n, (cpu_now() - c0) / n}, worst[2];
  MPI_Allreduce(t, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (cpu) *cpu = worst[1];
  return worst[0];
}

static double separated(cell *c, int which, int n) {
  double sum = 0, worst = 0;
  for (int i = 0; i < n; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    call(c, which);
    sum += MPI_Wtime() - t0;
  }
  sum /= n;
  MPI_Allreduce(&sum, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

/* P = 2 on one node: a window of one cache line that both ranks see. */
static void pair_setup(void) {
  MPI_Comm node;
  int n = 0;
  if (nprocs != 2) return;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &node);
  MPI_Comm_size(node, &n);
  if (n == 2) {
    void *mine, *first;
    MPI_Aint bytes;
    int unit;
    MPI_Win_allocate_shared(rank == 0 ? 64 : 0, 1, MPI_INFO_NULL, node, &mine,
                            &pair_win);
    MPI_Win_shared_query(pair_win, 0, &bytes, &unit, &first);
    pair_flag = first;
    if (rank == 0) *pair_flag = 0;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Comm_free(&node);
}

/* The fastest of 9 windows of 200 round trips of the flag, in ns a round
 * trip (rank 0's figure; the fastest, because a window in which either
 * rank waited for a CPU counts that wait); -1 without a shared line. */
static double pair_rtt_ns(void) {
  if (!pair_flag) return -1;
  double best = 1e30;
  long v = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int w = 0; w < 9; w++) {
    double s0 = MPI_Wtime();
    for (int i = 0; i < 200; i++, v += 2) {
      if (rank == 0) {
        __atomic_store_n(pair_flag, v + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(pair_flag, __ATOMIC_ACQUIRE) != v + 2) {}
      } else {
        while (__atomic_load_n(pair_flag, __ATOMIC_ACQUIRE) != v + 1) {}
        __atomic_store_n(pair_flag, v + 2, __ATOMIC_RELEASE);
      }
    }
    double ns = (MPI_Wtime() - s0) * 1e9 / 200;
    if (ns < best) best = ns;
  }
  MPI_Bcast(&best, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return best;
}

/* Every permutation of the three doors, so no door always follows another. */
static const int door_order[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                     {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

static int by_tick(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

enum { PAIRED_CALLS = 32 };

/* n / PAIRED_CALLS batches of each door in turn; t[w]: the slowest rank's
 * interquartile mean seconds per call of door w over its batches (ticks
 * converted with this round's own wall time). ticks: 3 * n slots. */
static void paired(cell *c, int n, uint64_t *ticks, double t[3]) {
  const int batches = n / PAIRED_CALLS > 8 ? n / PAIRED_CALLS : 8;
  int done[3] = {0, 0, 0};
  MPI_Barrier(MPI_COMM_WORLD);
  double w0 = MPI_Wtime();
  uint64_t k0 = bench_tick();
  for (int i = 0; i < batches; i++) {
    const int *order = door_order[i % 6];
    for (int k = 0; k < 3; k++) {
      const int w = order[k];
      MPI_Barrier(paired_barrier_comm);
      uint64_t a = bench_tick();
      for (int j = 0; j < PAIRED_CALLS; j++) call(c, w);
      ticks[w * batches + done[w]++] = bench_tick() - a;
    }
  }
  double per_tick = (MPI_Wtime() - w0) / (double)(bench_tick() - k0);
  double mine[3];
  for (int w = 0; w < 3; w++) {
    uint64_t *mine_w = ticks + w * batches, sum = 0;
    qsort(mine_w, (size_t)batches, sizeof *ticks, by_tick);
    const int lo = batches / 4, hi = batches - batches / 4;
    for (int i = lo; i < hi; i++) sum += mine_w[i];
    mine[w] = (double)sum / (double)(hi - lo) * per_tick / PAIRED_CALLS;
  }
  MPI_Allreduce(mine, t, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

/* Calls per stream batch so one batch takes about budget seconds. */
static int batch_size(cell *c, double budget) {
  int n = 8;
  double t = stream(c, 0, n, NULL);
  while (t * n < budget / 8 && n < MAXCALLS) {
    n *= 4;
    t = stream(c, 0, n, NULL);
  }
  long long want = t > 0 ? (long long)(budget / t) : MAXCALLS;
  if (want < 8) want = 8;
  if (want > MAXCALLS) want = MAXCALLS;
  int agreed = (int)want;
  MPI_Bcast(&agreed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return agreed;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(const double *v, int n) {
  double s[MAXROUNDS];
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof *s, by_value);
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static void measure(cell *c, const char *mode, int n, int rounds,
                    const char *table, long long bytes, const char *tag,
                    double load_before) {
  double t[3][MAXROUNDS], cpu[3][MAXROUNDS] = {{0}}, ratio[MAXROUNDS],
      control[MAXROUNDS], diff[MAXROUNDS], cpu_diff[MAXROUNDS];
  int barrier = is(mode, "barrier");
  /* paired: 3 doors x at least 8 batches */
  uint64_t *ticks =
      is(mode, "paired") ? malloc(3 * (size_t)(n + 8) * sizeof *ticks) : NULL;
  if (is(mode, "paired") && !ticks) {
    fprintf(stderr, "dispatch_bench: no memory for %d timings\n", 3 * n);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int r = 0; r < rounds; r++) {
    if (is(mode, "paired")) {
      double p[3];
      paired(c, n, ticks, p);
      for (int w = 0; w < 3; w++) t[w][r] = p[w];
    }
    for (int k = 0; k < 3 && !is(mode, "paired"); k++) {
      int which = (r % 2) ? 2 - k : k; /* both orders */
      t[which][r] = barrier ? separated(c, which, n)
                            : stream(c, which, n, &cpu[which][r]);
    }
    ratio[r] = t[1][r] / t[0][r];
    control[r] = t[2][r] / t[0][r];
    diff[r] = (t[1][r] - t[0][r]) * 1e9;
    cpu_diff[r] = (cpu[1][r] - cpu[0][r]) * 1e9;
  }
  free(ticks);
  const double rtt = pair_rtt_ns();
  if (rank) return;
  double lo = ratio[0], hi = ratio[0];
  for (int r = 1; r < rounds; r++) {
    if (ratio[r] < lo) lo = ratio[r];
    if (ratio[r] > hi) hi = ratio[r];
  }
  printf("%s,%s,%d,%lld,%s,%s,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.1f,",
         tag, c->coll, nprocs, bytes, table, mode, n, rounds,
         median(t[0], rounds) * 1e6, median(t[1], rounds) * 1e6,
         median(ratio, rounds), lo, hi, median(diff, rounds));
  if (barrier || is(mode, "paired")) printf(",");
  else printf("%.1f,", median(cpu_diff, rounds));
  printf("%.4f,", median(control, rounds));
  printf("%.2f,%.2f,", load_before, load1());
  if (rtt >= 0) printf("%.0f", rtt);
  printf("\n");
  fflush(stdout);
}

/* Whether the comma-separated list names mode. */
static int has_mode(const char *list, const char *mode) {
  size_t len = strlen(mode);
  for (const char *p = list; (p = strstr(p, mode)); p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len])) return 1;
  return 0;
}

static int parse_list(const char *text, long long *out, int max) {
  int n = 0;
  char *copy = strdup(text), *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok && n < max;
       tok = strtok_r(NULL, ",", &save))
    out[n++] = atoll(tok);
  free(copy);
  return n;
}

int main(int argc, char **argv) {
  const char *colls = "alltoall,allgather,bcast,allreduce,alltoallv,plan";
  const char *sizes_text = "8,64,512,4096,32768,262144";
  const char *tag = "run";
  const char *modes = "stream,barrier";
  int rounds = 9, header = 1;
  double budget = 0.02;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (is(argv[i], "--colls")) colls = argv[i + 1];
    else if (is(argv[i], "--sizes")) sizes_text = argv[i + 1];
    else if (is(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
    else if (is(argv[i], "--budget")) budget = atof(argv[i + 1]);
    else if (is(argv[i], "--header")) header = atoi(argv[i + 1]);
    else if (is(argv[i], "--tag")) tag = argv[i + 1];
    else if (is(argv[i], "--null")) null_door = atoi(argv[i + 1]);
    else if (is(argv[i], "--modes")) modes = argv[i + 1];
    else if (is(argv[i], "--paired-barrier") && is(argv[i + 1], "dup"))
      MPI_Comm_dup(MPI_COMM_WORLD, &paired_barrier_comm);
    else if (is(argv[i], "--paired-barrier") && is(argv[i + 1], "world"))
      paired_barrier_comm = MPI_COMM_WORLD;
    else {
      if (!rank) fprintf(stderr, "dispatch_bench: unknown option %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (rounds < 1 || rounds > MAXROUNDS) {
    if (!rank) fprintf(stderr, "dispatch_bench: --rounds must be 1..%d\n", MAXROUNDS);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (!has_mode(modes, "stream") && !has_mode(modes, "barrier") &&
      !has_mode(modes, "paired")) {
    if (!rank)
      fprintf(stderr, "dispatch_bench: --modes names none of stream, barrier, paired\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (null_door == 2) MPI_Comm_dup(MPI_COMM_WORLD, &null_comm);
  pair_setup();
  long long sizes[32];
  int nsizes = parse_list(sizes_text, sizes, 32);
  if (!rank && header)
    printf("tag,coll,procs,bytes,table,mode,calls,rounds,mpi_us,cz_us,"
           "ratio_median,ratio_min,ratio_max,diff_ns_median,cpu_diff_ns_median,"
           "control_ratio_median,load_before,"
           "load_after,pair_rtt_ns\n");
  char *list = strdup(colls), *save = NULL;
  for (char *coll = strtok_r(list, ",", &save); coll;
       coll = strtok_r(NULL, ",", &save)) {
    for (int s = 0; s < nsizes; s++) {
      cell c;
      char table[64] = "?";
      double load_before = rank ? 0 : load1();
      if (setup(&c, coll, sizes[s])) {
        if (!rank) fprintf(stderr, "dispatch_bench: %s %lld B: setup failed\n",
                           coll, sizes[s]);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      long long bytes = (long long)c.count * (long long)sizeof(int);
      long long table_bytes = is(coll, "plan") ? -1 : bytes;
      if (is(coll, "plan"))
        snprintf(table, sizeof table, "%s", cz_alltoallv_plan_algorithm(c.plan));
      else
        cz_selected_algorithm(table_coll(coll), nprocs, table_bytes, table,
                              sizeof table);
      if (check(&c)) {
        if (!rank)
          printf("%s,%s,%d,%lld,%s,check_failed,0,0,,,,,,,,,%.2f,%.2f,\n", tag,
                 coll, nprocs, bytes, table, load_before, load1());
        teardown(&c);
        continue;
      }
      int n = batch_size(&c, budget);
      int m = n < BARRIER_CALLS ? n : BARRIER_CALLS;
      if (has_mode(modes, "stream"))
        measure(&c, "stream", n, rounds, table, bytes, tag, load_before);
      if (has_mode(modes, "barrier"))
        measure(&c, "barrier", m, rounds, table, bytes, tag, load1());
      if (has_mode(modes, "paired"))
        measure(&c, "paired", n, rounds, table, bytes, tag, load1());
      teardown(&c);
    }
  }
  free(list);
  if (pair_win != MPI_WIN_NULL) MPI_Win_free(&pair_win);
  if (null_comm != MPI_COMM_NULL) MPI_Comm_free(&null_comm);
  if (paired_barrier_comm != MPI_COMM_WORLD) MPI_Comm_free(&paired_barrier_comm);
  MPI_Finalize();
  return 0;
}
