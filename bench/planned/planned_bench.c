/* planned_bench.c: planned alltoallv beside MPI_Alltoallv in the same run
 * (issue 7's benchmarks; run.sh drives it over P and simulated node sizes).
 *
 *   planned_bench --pattern pure|fft --variants mpi,plan,cached,two_phase,auto
 *                 [--sizes 1,5,...] [--reps 7] [--iters 200]
 *
 * pure: every pair exchanges n doubles (n from --sizes). fft: the transpose
 * of a distributed 3-D FFT of an n^3 grid of complex doubles, x-slabs to
 * y-slabs with FFTW's block distribution (ceil(n/P) planes per rank, so for
 * n < P some ranks own nothing and their rows and columns are empty).
 * Variants: mpi = MPI_Alltoallv; plan = cz_alltoallv_plan_execute on a plan
 * made once; cached = cz_alltoallv_planned (plan cache, node path);
 * two_phase = cz_alltoallv_two_phase; auto = cz_alltoallv (decision table).
 * Each variant's result is first compared with MPI's. Timing: warm-up, then
 * --reps batches per variant, interleaved across variants, each after a
 * barrier; per-rank mean per call reduced to the max over ranks (an
 * alltoallv ends when its slowest rank does); median, min and max over reps.
 * Also: plan creation time in units of one MPI_Alltoallv (median), and the
 * cache key's hashing cost. Output: CSV on rank 0's stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "collectivize.h"

/* Internal to libcollectivize (plan/plan.h): the cache key's hash, timed
 * here to show it is cheap next to a call. */
unsigned long long czi_plan_key_hash(const int *sendcounts, const int *sdispls,
                                     const int *recvcounts, const int *rdispls,
                                     int p, MPI_Datatype st, MPI_Datatype rt);

#define MAXV 8
static int rank, nprocs;

typedef struct {
  int *sc, *sd, *rc, *rd;
  double *send, *recv, *ref;
  long long mean_pair_bytes;
} pattern;

static long long owned(int n, int r) { /* FFTW-style block distribution */
  int b = (n + nprocs - 1) / nprocs;
  long long lo = (long long)r * b, hi = lo + b;
  if (lo > n) lo = n;
  if (hi > n) hi = n;
  return hi - lo;
}

/* Counts in doubles. */
static void make(pattern *pt, const char *kind, int n) {
  pt->sc = calloc(nprocs, sizeof(int));
  pt->sd = calloc(nprocs, sizeof(int));
  pt->rc = calloc(nprocs, sizeof(int));
  pt->rd = calloc(nprocs, sizeof(int));
  long long s = 0, r = 0, nz = 0, tot = 0;
  for (int j = 0; j < nprocs; j++) {
    if (!strcmp(kind, "pure")) {
      pt->sc[j] = n;
      pt->rc[j] = n;
    } else { /* complex = 2 doubles; x-planes I own × y-planes j owns × n */
      pt->sc[j] = (int)(owned(n, rank) * owned(n, j) * n * 2);
      pt->rc[j] = (int)(owned(n, j) * owned(n, rank) * n * 2);
    }
    pt->sd[j] = (int)s;
    pt->rd[j] = (int)r;
    s += pt->sc[j];
    r += pt->rc[j];
    if (j != rank && pt->sc[j]) nz++, tot += pt->sc[j] * 8LL;
  }
  long long g[2] = {nz, tot};
  MPI_Allreduce(MPI_IN_PLACE, g, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  pt->mean_pair_bytes = g[0] ? g[1] / g[0] : 0;
  pt->send = malloc(sizeof(double) * (size_t)(s + 1));
  pt->recv = malloc(sizeof(double) * (size_t)(r + 1));
  pt->ref = malloc(sizeof(double) * (size_t)(r + 1));
  for (long long i = 0; i < s; i++) pt->send[i] = rank * 1e6 + (double)i;
}

static void unmake(pattern *pt) {
  free(pt->sc); free(pt->sd); free(pt->rc); free(pt->rd);
  free(pt->send); free(pt->recv); free(pt->ref);
}

static int run(const char *v, pattern *pt, cz_alltoallv_plan_t plan) {
  if (!strcmp(v, "mpi"))
    return MPI_Alltoallv(pt->send, pt->sc, pt->sd, MPI_DOUBLE, pt->recv, pt->rc,
                         pt->rd, MPI_DOUBLE, MPI_COMM_WORLD);
  if (!strcmp(v, "plan")) return cz_alltoallv_plan_execute(plan, pt->send, pt->recv);
  if (!strcmp(v, "cached"))
    return cz_alltoallv_planned(pt->send, pt->sc, pt->sd, MPI_DOUBLE, pt->recv,
                                pt->rc, pt->rd, MPI_DOUBLE, MPI_COMM_WORLD);
  if (!strcmp(v, "two_phase"))
    return cz_alltoallv_two_phase(pt->send, pt->sc, pt->sd, MPI_DOUBLE, pt->recv,
                                  pt->rc, pt->rd, MPI_DOUBLE, MPI_COMM_WORLD);
  return cz_alltoallv(pt->send, pt->sc, pt->sd, MPI_DOUBLE, pt->recv, pt->rc,
                      pt->rd, MPI_DOUBLE, MPI_COMM_WORLD);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Max over ranks of this rank's mean time per call. */
static double batch(const char *v, pattern *pt, cz_alltoallv_plan_t plan, int iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; i++) run(v, pt, plan);
  double t = (MPI_Wtime() - t0) / iters * 1e6;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const char *kind = "pure", *variants = "mpi,plan,cached,two_phase";
  const char *sizes = "1,5,10,20,40,80,160,320";
  int reps = 7, iters = 200, header = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--pattern")) kind = argv[i + 1];
    else if (!strcmp(argv[i], "--variants")) variants = argv[i + 1];
    else if (!strcmp(argv[i], "--sizes")) sizes = argv[i + 1];
    else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--header")) header = atoi(argv[i + 1]);
  }
  char *vlist[MAXV];
  int nv = 0;
  char *vs = strdup(variants);
  char *save = NULL; /* strtok_r: Open MPI calls strtok inside MPI calls */
  for (char *t = strtok_r(vs, ",", &save); t && nv < MAXV; t = strtok_r(NULL, ",", &save))
    vlist[nv++] = t;
  const char *k = getenv("COLLECTIVIZE_RANKS_PER_NODE");
  const int node = k && *k ? atoi(k) : 0;
  if (rank == 0 && header)
    printf("pattern,procs,node_size,n,mean_pair_bytes,variant,iters,reps,"
           "median_us,min_us,max_us,ratio_to_mpi,plan_runs,note\n");

  char *ss = strdup(sizes);
  for (char *t = strtok_r(ss, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    const int n = atoi(t);
    pattern pt;
    make(&pt, kind, n);
    /* Plan creation, timed (median of 5), then the plan kept for "plan". */
    double create[5];
    cz_alltoallv_plan_t plan = NULL;
    for (int r = 0; r < 5; r++) {
      if (plan) cz_alltoallv_plan_free(&plan);
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      cz_alltoallv_plan_create(pt.sc, pt.sd, MPI_DOUBLE, pt.rc, pt.rd, MPI_DOUBLE,
                               MPI_COMM_WORLD, &plan);
      create[r] = (MPI_Wtime() - t0) * 1e6;
      MPI_Allreduce(MPI_IN_PLACE, &create[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    qsort(create, 5, sizeof(double), cmp_double);
    /* Hashing the cache key: 10^5 times, this rank's arrays. */
    double h0 = MPI_Wtime();
    unsigned long long sink = 0;
    for (int r = 0; r < 100000; r++)
      sink += czi_plan_key_hash(pt.sc, pt.sd, pt.rc, pt.rd, nprocs, MPI_DOUBLE,
                                r & 1 ? MPI_DOUBLE : MPI_INT);
    const double hash_us = (MPI_Wtime() - h0) / 100000 * 1e6;

    /* Correctness, then warm-up (also fills the cache). */
    char status[MAXV][16];
    MPI_Alltoallv(pt.send, pt.sc, pt.sd, MPI_DOUBLE, pt.ref, pt.rc, pt.rd,
                  MPI_DOUBLE, MPI_COMM_WORLD);
    long long rlen = 0;
    for (int j = 0; j < nprocs; j++) rlen += pt.rc[j];
    for (int v = 0; v < nv; v++) {
      memset(pt.recv, 0, sizeof(double) * (size_t)(rlen + 1));
      int rc = run(vlist[v], &pt, plan);
      int bad = rc != MPI_SUCCESS || memcmp(pt.recv, pt.ref, sizeof(double) * (size_t)rlen);
      MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      snprintf(status[v], sizeof status[v], "%s", bad ? "WRONG" : "ok");
      for (int w = 0; w < 10; w++) run(vlist[v], &pt, plan);
    }
    double t[MAXV][64];
    for (int r = 0; r < reps && r < 64; r++)
      for (int v = 0; v < nv; v++) t[v][r] = batch(vlist[v], &pt, plan, iters);
    double med[MAXV];
    for (int v = 0; v < nv; v++) {
      qsort(t[v], (size_t)reps, sizeof(double), cmp_double);
      med[v] = t[v][reps / 2];
    }
    double mpi_med = med[0];
    for (int v = 0; v < nv; v++)
      if (!strcmp(vlist[v], "mpi")) mpi_med = med[v];
    if (rank == 0) {
      for (int v = 0; v < nv; v++)
        printf("%s,%d,%d,%d,%lld,%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%s,%s\n", kind,
               nprocs, node, n, pt.mean_pair_bytes, vlist[v], iters, reps, med[v],
               t[v][0], t[v][reps - 1], med[v] / mpi_med,
               cz_alltoallv_plan_algorithm(plan), status[v]);
      printf("%s,%d,%d,%d,%lld,plan_create,5,5,%.3f,%.3f,%.3f,%.3f,%s,"
             "in units of one MPI_Alltoallv\n",
             kind, nprocs, node, n, pt.mean_pair_bytes, create[2], create[0],
             create[4], create[2] / mpi_med, cz_alltoallv_plan_algorithm(plan));
      printf("%s,%d,%d,%d,%lld,key_hash,100000,1,%.4f,%.4f,%.4f,%.5f,-,"
             "rank 0 hashing its 4x%d ints%s\n",
             kind, nprocs, node, n, pt.mean_pair_bytes, hash_us, hash_us, hash_us,
             hash_us / mpi_med, nprocs, sink == 1 ? " " : "");
      fflush(stdout);
    }
    cz_alltoallv_plan_free(&plan);
    unmake(&pt);
  }
  free(ss);
  free(vs);
  MPI_Finalize();
  return 0;
}
