/* trial_timeline.c: does cz_<coll> follow the faster of the table's own
 * algorithm and the MPI library's collective as the machine changes under
 * it (runtime/src/decision/trial.c)? On the development VM the host moves
 * the two vCPUs apart and together for tens of seconds at a time, which
 * makes the shared-memory algorithms 3-5x slower than the library and then
 * 0.5x again (bench/README.md, "Cores far apart").
 *
 *   mpirun -n 2 cz_trial_timeline [--coll allgather] [--bytes 262144]
 *                                 [--seconds 60] [--calls 20]
 *
 * Every 0.25 s, `calls` rounds of three calls, each after a barrier and
 * timed alone, the order rotating per round: the library's collective
 * (mpi), the table's algorithm called by name (own: never on trial), and
 * cz_<coll> (cz: the table with its trial). A kind's time in a period is
 * the slowest rank's median call, and its fastest (the slowest rank's
 * fastest call: what the code costs when no other job took the CPU, on a
 * loaded machine). CSV on rank 0's stdout:
 *   second,mpi_us,own_us,cz_us,own_ratio,cz_ratio,verdict,trials,
 *   mpi_min_us,own_min_us,cz_min_us,far,probes
 * own_ratio and cz_ratio are to mpi (medians); verdict is the trial's (1:
 * the library, 0: own) at the end of the period; far the placement probe's
 * state then (decision/placement.c; 1: cores far apart) and probes its
 * probes so far. Linked with the runtime's
 * internal library for the verdict (czi_trial_verdict) and the collective's
 * name (czi_collective_parse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "collectivize.h"
#include "placement.h"
#include "registry.h"
#include "trial.h"

enum { MPI_K, OWN_K, CZ_K, KINDS, MAXCALLS = 1000 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct run {
  cz_collective coll;
  char own[64];
  int count; /* ints per block (alltoall, allgather) or message */
  int *send, *recv;
} run;

static int call(const run *r, int kind) {
  void *s = r->send, *d = r->recv;
  const int n = r->count;
  switch (r->coll) {
  case CZ_COLL_ALLGATHER:
    if (kind == MPI_K) return MPI_Allgather(s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
    if (kind == OWN_K)
      return cz_allgather_algorithm(r->own, s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
    return cz_allgather(s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
  case CZ_COLL_ALLTOALL:
    if (kind == MPI_K) return MPI_Alltoall(s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
    if (kind == OWN_K)
      return cz_alltoall_algorithm(r->own, s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
    return cz_alltoall(s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
  case CZ_COLL_BCAST:
    if (kind == MPI_K) return MPI_Bcast(d, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (kind == OWN_K) return cz_bcast_algorithm(r->own, d, n, MPI_INT, 0, MPI_COMM_WORLD);
    return cz_bcast(d, n, MPI_INT, 0, MPI_COMM_WORLD);
  case CZ_COLL_ALLREDUCE:
    if (kind == MPI_K) return MPI_Allreduce(s, d, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (kind == OWN_K)
      return cz_allreduce_algorithm(r->own, s, d, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return cz_allreduce(s, d, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  default:
    return MPI_ERR_ARG;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const char *coll_name = "allgather";
  long long bytes = 262144;
  double seconds = 60;
  int calls = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--coll")) coll_name = argv[i + 1];
    else if (!strcmp(argv[i], "--bytes")) bytes = atoll(argv[i + 1]);
    else if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--calls")) calls = atoi(argv[i + 1]);
  }
  run r = {.count = (int)(bytes / 4)};
  if (czi_collective_parse(coll_name, strlen(coll_name), &r.coll) != MPI_SUCCESS ||
      r.coll == CZ_COLL_ALLTOALLV || calls < 1 || calls > MAXCALLS || r.count < 1) {
    if (!rank)
      fprintf(stderr, "cz_trial_timeline: need --coll allgather|alltoall|bcast|"
                      "allreduce, --bytes >= 4, --calls 1..%d\n", MAXCALLS);
    MPI_Finalize();
    return 1;
  }
  cz_selected_algorithm(r.coll, p, bytes, r.own, sizeof r.own);
  r.send = calloc((size_t)r.count * (size_t)p, sizeof(int));
  r.recv = calloc((size_t)r.count * (size_t)p, sizeof(int));
  if (!rank) {
    printf("# %s P=%d bytes=%lld table=%s\n", coll_name, p, bytes, r.own);
    puts("second,mpi_us,own_us,cz_us,own_ratio,cz_ratio,verdict,trials,"
         "mpi_min_us,own_min_us,cz_min_us,far,probes");
  }
  double t[KINDS][MAXCALLS];
  const double start = MPI_Wtime();
  for (int period = 0;; period++) {
    double now = MPI_Wtime() - start; /* rank 0's clock decides for all */
    MPI_Bcast(&now, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (now >= seconds) break;
    for (int i = 0; i < calls; i++)
      for (int j = 0; j < KINDS; j++) {
        const int kind = (i + j) % KINDS;
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (call(&r, kind) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
        t[kind][i] = MPI_Wtime() - t0;
      }
    double mine[2 * KINDS], worst[2 * KINDS]; /* medians, then minima */
    for (int k = 0; k < KINDS; k++) {
      qsort(t[k], (size_t)calls, sizeof(double), cmp_double);
      mine[k] = t[k][calls / 2] * 1e6;
      mine[KINDS + k] = t[k][0] * 1e6;
    }
    MPI_Reduce(mine, worst, 2 * KINDS, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int trials = 0;
    const int verdict = czi_trial_verdict(MPI_COMM_WORLD, r.coll, bytes, &trials);
    czi_placement pl = {0};
    czi_placement_stats(MPI_COMM_WORLD, &pl);
    if (!rank) {
      printf("%.2f,%.1f,%.1f,%.1f,%.3f,%.3f,%d,%d,%.1f,%.1f,%.1f,%d,%u\n",
             MPI_Wtime() - start, worst[MPI_K], worst[OWN_K], worst[CZ_K],
             worst[OWN_K] / worst[MPI_K], worst[CZ_K] / worst[MPI_K], verdict,
             trials, worst[KINDS + MPI_K], worst[KINDS + OWN_K],
             worst[KINDS + CZ_K], pl.far, pl.probes);
      fflush(stdout);
    }
    /* The rest of the period asleep, so the next starts on time. */
    const double rest = (period + 1) * 0.25 - (MPI_Wtime() - start);
    if (rest > 0) {
      struct timespec ts = {(time_t)rest, (long)((rest - (double)(time_t)rest) * 1e9)};
      nanosleep(&ts, NULL);
    }
  }
  free(r.send);
  free(r.recv);
  MPI_Finalize();
  return 0;
}
