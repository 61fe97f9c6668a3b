/* p2_ab.c: where does cz_alltoall's extra time at P = 2 and small blocks go
 * (bench/README.md, "Dispatch cost")? The same alltoall through several
 * doors, timed in the same launch, round-robin:
 *   world    MPI_Alltoall on MPI_COMM_WORLD (the reference)
 *   dup      MPI_Alltoall on the program's own MPI_Comm_dup of it
 *   dup_eh   the same on a dup with MPI_ERRORS_RETURN and an attribute, as
 *            the runtime's private duplicate has
 *   priv     PMPI_Alltoall on the runtime's private duplicate itself
 *   cz       cz_alltoall on MPI_COMM_WORLD (the table hands it to MPI)
 *   cz_dup   cz_alltoall on the program's dup
 *
 *   mpirun -n 2 cz_p2_ab [--bytes 8] [--rounds 21] [--calls 20000]
 *
 * Per round every door runs `calls` calls back to back after a barrier
 * (the order rotates each round); a door's round time is the slowest
 * rank's mean per call. Printed: per door the median over rounds (ns), and
 * the median and range of the per-round ratio to world, the fastest round
 * (the least disturbed when other jobs share the cores) and the CPU time
 * per call of rank 0. Linked with the runtime's internal library for the
 * private duplicate (czi_private_comm). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "collectivize.h"

int czi_private_comm(MPI_Comm comm, MPI_Comm *out);

enum { WORLD, DUP, DUP_EH, PRIV, CZ, CZ_DUP, DOORS, MAXROUNDS = 101 };
static const char *const door_name[DOORS] = {"world", "dup",  "dup_eh",
                                             "priv",  "cz",   "cz_dup"};

static double now(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p, ints = 2, rounds = 21, calls = 20000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--bytes")) ints = atoi(argv[i + 1]) / (int)sizeof(int);
    else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--calls")) calls = atoi(argv[i + 1]);
  }
  if (ints < 1) ints = 1;
  if (rounds < 1 || rounds > MAXROUNDS) rounds = 21;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *send = calloc((size_t)p * ints, sizeof(int));
  int *recv = calloc((size_t)p * ints, sizeof(int));
  MPI_Comm dup, dup_eh, priv, comm[DOORS];
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup_eh);
  MPI_Comm_set_errhandler(dup_eh, MPI_ERRORS_RETURN);
  int key;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_set_attr(dup_eh, key, send);
  cz_alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, MPI_COMM_WORLD);
  cz_alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, dup);
  czi_private_comm(MPI_COMM_WORLD, &priv);
  comm[WORLD] = MPI_COMM_WORLD, comm[DUP] = dup, comm[DUP_EH] = dup_eh;
  comm[PRIV] = priv, comm[CZ] = MPI_COMM_WORLD, comm[CZ_DUP] = dup;
  static double t[DOORS][MAXROUNDS], cpu[DOORS][MAXROUNDS], ratio[DOORS][MAXROUNDS];
  for (int r = -1; r < rounds; r++) { /* round -1 warms up */
    for (int k = 0; k < DOORS; k++) {
      const int d = (k + (r < 0 ? 0 : r)) % DOORS;
      MPI_Barrier(MPI_COMM_WORLD);
      double c0 = now(CLOCK_THREAD_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);
      for (int i = 0; i < calls; i++) {
        if (d == CZ || d == CZ_DUP)
          cz_alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, comm[d]);
        else if (d == PRIV)
          PMPI_Alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, priv);
        else
          MPI_Alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, comm[d]);
      }
      double mine = (now(CLOCK_MONOTONIC) - t0) / calls, slowest;
      double mycpu = (now(CLOCK_THREAD_CPUTIME_ID) - c0) / calls;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (r >= 0) t[d][r] = slowest * 1e9, cpu[d][r] = mycpu * 1e9;
    }
    if (r >= 0)
      for (int d = 0; d < DOORS; d++) ratio[d][r] = t[d][r] / t[WORLD][r];
  }
  if (rank == 0) {
    double load[3] = {0};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
      if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
      fclose(f);
    }
    printf("P=%d block=%zu B rounds=%d calls=%d load=%.1f\n", p, ints * sizeof(int),
           rounds, calls, load[0]);
    printf("%-7s %10s %10s %16s %10s %12s\n", "door", "ns/call", "ratio",
           "ratio range", "fastest", "cpu ns/call");
    for (int d = 0; d < DOORS; d++) {
      double rs[MAXROUNDS];
      memcpy(rs, ratio[d], sizeof rs);
      double med_ratio = median(rs, rounds), lo = rs[0], hi = rs[rounds - 1];
      double med_t = median(t[d], rounds), fastest = t[d][0];
      printf("%-7s %10.1f %10.3f %7.3f-%-8.3f %10.1f %12.1f\n", door_name[d],
             med_t, med_ratio, lo, hi, fastest, median(cpu[d], rounds));
    }
  }
  MPI_Comm_free(&dup);
  MPI_Comm_free(&dup_eh);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
