/*
 * step_export.c: runs the runtime's alltoall and allgather algorithms with
 * labelled blocks and writes where every block is after each step, as JSON.
 * The report's browser test compares the algorithm explorer's pictures with
 * this, so the explorer cannot drift from what the library really does.
 *
 *   mpirun -np P step_export OUT.json [COUNT]
 *
 * Element values label blocks: alltoall block from s to d holds s*P + d,
 * allgather block of s holds s (every element of a block alike; COUNT
 * elements per block, default 1). Receive buffers start at -1 (empty).
 * Steps come from collectivize_steps.h; a rank that does not report a step
 * keeps its previous state, and empty before its first report.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectivize.h"
#include "collectivize_steps.h"

static const char *const kPhases[] = {
    "rotate", "round", "inverse rotation", "local copy", "exchange",
    "all exchanges", "pass", "gather", "bcast", "fold", "unfold", "?"};
enum { kPhaseCount = sizeof kPhases / sizeof kPhases[0] };

typedef struct {
  int p, count, max_steps;
  int *rows; /* max_steps rows of (step, phase, p labels); step -1 unused */
  int used;
} recorder;

static int phase_id(const char *phase) {
  for (int i = 0; i < kPhaseCount - 1; ++i)
    if (strcmp(phase, kPhases[i]) == 0) return i;
  return kPhaseCount - 1;
}

/* One label per block: its first element, or -2 when its elements differ
 * (the algorithm mixed blocks up: the test then fails visibly). */
static void observe(const char *algorithm, int step, const char *phase,
                    const void *buffer, size_t bytes, void *arg) {
  recorder *r = arg;
  (void)algorithm;
  if (r->used >= r->max_steps ||
      bytes < (size_t)r->p * (size_t)r->count * sizeof(int))
    return;
  int *row = r->rows + (size_t)r->used++ * (size_t)(r->p + 2);
  const int *v = buffer;
  row[0] = step;
  row[1] = phase_id(phase);
  for (int b = 0; b < r->p; ++b) {
    int label = v[b * r->count];
    for (int e = 1; e < r->count; ++e)
      if (v[b * r->count + e] != label) label = -2;
    row[2 + b] = label;
  }
}

static void write_label(FILE *out, int label, int p, int alltoall) {
  if (label == -1) fputs("null", out);
  else if (label < 0 || label >= p * p) fputs("\"mixed\"", out);
  else if (alltoall) fprintf(out, "[%d,%d]", label / p, label % p);
  else fprintf(out, "%d", label);
}

/* Rank 0: every rank's rows -> one picture per step. */
static void write_steps(FILE *out, const int *all, int p, int max_steps,
                        int alltoall) {
  const size_t row_len = (size_t)p + 2;
  int last = -1;
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < max_steps; ++i) {
      int s = all[((size_t)r * max_steps + i) * row_len];
      if (s > last) last = s;
    }
  fputs("[", out);
  for (int s = 0; s <= last; ++s) {
    const char *phase = NULL;
    fprintf(out, "%s\n    {\"step\": %d, \"ranks\": [", s ? "," : "", s);
    for (int r = 0; r < p; ++r) {
      const int *state = NULL;
      for (int i = 0; i < max_steps; ++i) {
        const int *row = all + ((size_t)r * max_steps + i) * row_len;
        if (row[0] >= 0 && row[0] <= s) state = row;
        if (row[0] == s && !phase) phase = kPhases[row[1]];
      }
      fputs(r ? ", [" : "[", out);
      for (int b = 0; b < p; ++b) {
        if (b) fputc(',', out);
        write_label(out, state ? state[2 + b] : -1, p, alltoall);
      }
      fputc(']', out);
    }
    fprintf(out, "], \"phase\": \"%s\"}", phase ? phase : "");
  }
  fputs("]", out);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc < 2 || (argc > 2 && atoi(argv[2]) < 1)) {
    if (me == 0) fprintf(stderr, "usage: mpirun -np P step_export OUT.json [COUNT>=1]\n");
    MPI_Finalize();
    return 2;
  }
  const int count = argc > 2 ? atoi(argv[2]) : 1;
  static const struct { const char *coll, *name; } kRuns[] = {
      {"alltoall", "bruck"},        {"alltoall", "bruck:3"},
      {"alltoall", "bruck:4"},      {"alltoall", "spread_out"},
      {"alltoall", "pairwise"},     {"allgather", "gather_bcast"},
      {"allgather", "recursive_doubling"}, {"allgather", "ring"}};
  const int runs = sizeof kRuns / sizeof kRuns[0];
  recorder rec = {p, count, p + 4, NULL, 0};
  const size_t rows_bytes = (size_t)rec.max_steps * (p + 2) * sizeof(int);
  rec.rows = malloc(rows_bytes);
  int *all = me == 0 ? malloc(rows_bytes * p) : NULL;
  int *send = malloc(sizeof(int) * p * count);
  int *recv = malloc(sizeof(int) * p * count);
  FILE *out = NULL;
  if (me == 0) {
    out = fopen(argv[1], "w");
    if (!out) {
      perror(argv[1]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fprintf(out, "{\"format\": \"collectivize-steps\", \"version\": 1, "
                 "\"procs\": %d, \"count\": %d, \"algorithms\": [", p, count);
  }
  int failed = 0;
  for (int k = 0; k < runs; ++k) {
    const int alltoall = strcmp(kRuns[k].coll, "alltoall") == 0;
    for (int b = 0; b < p; ++b)
      for (int e = 0; e < count; ++e) send[b * count + e] = alltoall ? me * p + b : me;
    for (int i = 0; i < p * count; ++i) recv[i] = -1;
    memset(rec.rows, 0xff, rows_bytes); /* step -1: unused */
    rec.used = 0;
    cz_set_step_observer(observe, &rec);
    int rc = alltoall ? cz_alltoall_algorithm(kRuns[k].name, send, count, MPI_INT,
                                              recv, count, MPI_INT, MPI_COMM_WORLD)
                      : cz_allgather_algorithm(kRuns[k].name, send, count, MPI_INT,
                                               recv, count, MPI_INT, MPI_COMM_WORLD);
    cz_set_step_observer(NULL, NULL);
    if (rc != MPI_SUCCESS) {
      fprintf(stderr, "step_export: %s %s failed on rank %d\n", kRuns[k].coll,
              kRuns[k].name, me);
      failed = 1;
    }
    /* The labels only mean something if the collective itself was right. */
    for (int b = 0; b < p && rc == MPI_SUCCESS; ++b)
      for (int e = 0; e < count; ++e)
        if (recv[b * count + e] != (alltoall ? b * p + me : b)) {
          fprintf(stderr, "step_export: %s %s: wrong result on rank %d, block %d\n",
                  kRuns[k].coll, kRuns[k].name, me, b);
          failed = 1;
          break;
        }
    MPI_Gather(rec.rows, (int)(rows_bytes / sizeof(int)), MPI_INT, all,
               (int)(rows_bytes / sizeof(int)), MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
      fprintf(out, "%s\n  {\"collective\": \"%s\", \"algorithm\": \"%s\", \"steps\": ",
              k ? "," : "", kRuns[k].coll, kRuns[k].name);
      write_steps(out, all, p, rec.max_steps, alltoall);
      fputs("}", out);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0) {
    fputs("\n]}\n", out);
    if (fclose(out) != 0) failed = 1;
  }
  free(send);
  free(recv);
  free(rec.rows);
  free(all);
  MPI_Finalize();
  return failed;
}
