/* registry.c: every algorithm listed once, as data (MPICH coll_algorithms.txt
 * style). The decision table, the environment overrides, the public
 * cz_<coll>_<algo> entry points, the benchmark and the tests all read it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define FN(f) ((void (*)(void))(f))

const czi_algorithm czi_algorithms[] = {
    {"bruck", CZ_COLL_ALLTOALL, FN(czi_alltoall_bruck), "radix", 2, 2, 1 << 20,
     "log-step Bruck with rotation phases (radix r: log_r P steps)"},
    {"spread_out", CZ_COLL_ALLTOALL, FN(czi_alltoall_spread_out), NULL, 0, 0, 0,
     "all Irecv, all Isend in rank-staggered order, one Waitall"},
    {"pairwise", CZ_COLL_ALLTOALL, FN(czi_alltoall_pairwise), NULL, 0, 0, 0,
     "P-1 Sendrecv steps (XOR partner for powers of two)"},
    {"shm_push", CZ_COLL_ALLTOALL, FN(czi_alltoall_shm_push), NULL, 0, 0, 0,
     "one node: write blocks into peers' shared-memory slots, barrier, copy out"},
    {"shm_pull", CZ_COLL_ALLTOALL, FN(czi_alltoall_shm_pull), NULL, 0, 0, 0,
     "one node: stage blocks in my shared-memory slots, barrier, peers copy"},
    {"shm_flag_push", CZ_COLL_ALLTOALL, FN(czi_alltoall_shm_flag_push), NULL, 0,
     0, 0, "shm_push with per-rank round flags instead of the barrier"},
    {"shm_flag_pull", CZ_COLL_ALLTOALL, FN(czi_alltoall_shm_flag_pull), NULL, 0,
     0, 0, "shm_pull with per-rank round flags instead of the barrier"},
    {"mpi", CZ_COLL_ALLTOALL, FN(czi_alltoall_mpi), NULL, 0, 0, 0,
     "the MPI library's own MPI_Alltoall"},

    {"gather_bcast", CZ_COLL_ALLGATHER, FN(czi_allgather_gather_bcast), NULL, 0,
     0, 0, "linear gather to rank 0, then binomial broadcast"},
    {"recursive_doubling", CZ_COLL_ALLGATHER,
     FN(czi_allgather_recursive_doubling), NULL, 0, 0, 0,
     "pairwise exchange of doubling halves (any P: extra ranks fold in)"},
    {"bruck", CZ_COLL_ALLGATHER, FN(czi_allgather_bruck), NULL, 0, 0, 0,
     "ceil(log2 P) dissemination steps, then one rotation"},
    {"ring", CZ_COLL_ALLGATHER, FN(czi_allgather_ring), NULL, 0, 0, 0,
     "P-1 steps passing blocks to the right neighbour"},
    {"shm", CZ_COLL_ALLGATHER, FN(czi_allgather_shm), NULL, 0, 0, 0,
     "one node: each block written once to shared memory, read by all"},
    {"shm_flag", CZ_COLL_ALLGATHER, FN(czi_allgather_shm_flag), NULL, 0, 0, 0,
     "allgather shm with per-rank round flags instead of the barrier"},
    {"mpi", CZ_COLL_ALLGATHER, FN(czi_allgather_mpi), NULL, 0, 0, 0,
     "the MPI library's own MPI_Allgather"},

    {"binomial", CZ_COLL_BCAST, FN(czi_bcast_binomial), NULL, 0, 0, 0,
     "binomial tree from the root"},
    {"scatter_allgather", CZ_COLL_BCAST, FN(czi_bcast_scatter_allgather), NULL,
     0, 0, 0, "binomial scatter of P chunks, then ring allgather"},
    {"shm", CZ_COLL_BCAST, FN(czi_bcast_shm), NULL, 0, 0, 0,
     "one node: root writes once into pipelined shared-memory segments"},
    {"mpi", CZ_COLL_BCAST, FN(czi_bcast_mpi), NULL, 0, 0, 0,
     "the MPI library's own MPI_Bcast"},

    {"spread_out", CZ_COLL_ALLTOALLV, FN(czi_alltoallv_spread_out), NULL, 0, 0,
     0, "all Irecv, all Isend in rank-staggered order, one Waitall"},
    {"pairwise", CZ_COLL_ALLTOALLV, FN(czi_alltoallv_pairwise), NULL, 0, 0, 0,
     "P-1 Sendrecv steps (XOR partner for powers of two)"},
    {"planned", CZ_COLL_ALLTOALLV, FN(czi_alltoallv_planned), NULL, 0, 0, 0,
     "node-aware: one message per node pair via shared memory (cached plans)"},
    {"two_phase", CZ_COLL_ALLTOALLV, FN(czi_alltoallv_two_phase), NULL, 0, 0,
     0, "Bruck-style log-step exchange of variable-size blocks"},
    {"mpi", CZ_COLL_ALLTOALLV, FN(czi_alltoallv_mpi), NULL, 0, 0, 0,
     "the MPI library's own MPI_Alltoallv"},

    {"shm", CZ_COLL_ALLREDUCE, FN(czi_allreduce_shm), NULL, 0, 0, 0,
     "one node: inputs in shared memory, every rank reduces all in rank order"},
    {"shm_rs", CZ_COLL_ALLREDUCE, FN(czi_allreduce_shm_rs), NULL, 0, 0, 0,
     "one node: shared-memory reduce-scatter of 1/P slices, then allgather"},
    {"mpi", CZ_COLL_ALLREDUCE, FN(czi_allreduce_mpi), NULL, 0, 0, 0,
     "the MPI library's own MPI_Allreduce"},
    {NULL, 0, NULL, NULL, 0, 0, 0, NULL}};

static const char *const collective_names[CZ_COLL_COUNT] = {
    "alltoall", "allgather", "bcast", "alltoallv", "allreduce"};

const char *cz_collective_name(cz_collective coll) {
  return (unsigned)coll < CZ_COLL_COUNT ? collective_names[coll] : NULL;
}

int czi_collective_parse(const char *text, size_t len, cz_collective *coll) {
  for (int c = 0; c < CZ_COLL_COUNT; c++)
    if (strlen(collective_names[c]) == len &&
        strncmp(collective_names[c], text, len) == 0) {
      *coll = (cz_collective)c;
      return MPI_SUCCESS;
    }
  return MPI_ERR_ARG;
}

const char *cz_algorithm_names(cz_collective coll) {
  /* Built once per collective; the registry is constant. */
  static char names[CZ_COLL_COUNT][256];
  if ((unsigned)coll >= CZ_COLL_COUNT) return "";
  if (!names[coll][0]) {
    char buf[256] = "";
    for (const czi_algorithm *a = czi_algorithms; a->name; a++) {
      if (a->coll != coll) continue;
      if (buf[0]) strncat(buf, " ", sizeof buf - strlen(buf) - 1);
      strncat(buf, a->name, sizeof buf - strlen(buf) - 1);
      if (a->param_name) strncat(buf, "[:R]", sizeof buf - strlen(buf) - 1);
    }
    memcpy(names[coll], buf, sizeof buf);
  }
  return names[coll];
}

int cz_algorithm_info(cz_collective coll, int index, cz_algorithm_desc *out) {
  if ((unsigned)coll >= CZ_COLL_COUNT || index < 0 || !out) return MPI_ERR_ARG;
  for (const czi_algorithm *a = czi_algorithms; a->name; a++) {
    if (a->coll != coll || index-- > 0) continue;
    out->name = a->name;
    out->param_name = a->param_name;
    out->param_default = a->param_default;
    out->param_min = a->param_min;
    out->param_max = a->param_max;
    out->summary = a->summary;
    return MPI_SUCCESS;
  }
  return MPI_ERR_ARG;
}

const czi_algorithm *czi_algorithm_find(cz_collective coll, const char *name,
                                        size_t len) {
  for (const czi_algorithm *a = czi_algorithms; a->name; a++)
    if (a->coll == coll && strlen(a->name) == len &&
        strncmp(a->name, name, len) == 0)
      return a;
  return NULL;
}

int czi_algorithm_parse(cz_collective coll, const char *text,
                        const czi_algorithm **alg, int *param, char *err,
                        size_t errlen) {
  size_t len = strcspn(text, ":");
  const czi_algorithm *a = czi_algorithm_find(coll, text, len);
  if (!a) {
    snprintf(err, errlen, "'%s' is not a%s %s algorithm (valid: %s)", text,
             cz_collective_name(coll)[0] == 'a' ? "n" : "",
             cz_collective_name(coll), cz_algorithm_names(coll));
    return MPI_ERR_ARG;
  }
  int value = a->param_default;
  if (text[len] == ':') {
    const char *digits = text + len + 1;
    char *end = NULL;
    long v = strtol(digits, &end, 10);
    if (!a->param_name) {
      snprintf(err, errlen, "algorithm '%s' takes no parameter (got '%s')",
               a->name, text);
      return MPI_ERR_ARG;
    }
    /* Digits only: strtol alone would also take " 4" and "+4". */
    if (!isdigit((unsigned char)digits[0]) || *end || v < a->param_min || v > a->param_max) {
      snprintf(err, errlen, "%s of '%s' must be an integer in %d..%d (got '%s')",
               a->param_name, a->name, a->param_min, a->param_max, digits);
      return MPI_ERR_ARG;
    }
    value = (int)v;
  }
  *alg = a;
  *param = value;
  return MPI_SUCCESS;
}

void czi_algorithm_format(const czi_algorithm *alg, int param, char *out,
                          size_t len) {
  if (alg->param_name && param != alg->param_default)
    snprintf(out, len, "%s:%d", alg->name, param);
  else
    snprintf(out, len, "%s", alg->name);
}
