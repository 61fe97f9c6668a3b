/* registry.c: the registry of algorithms made from their list
 * (common/algorithms.def), and lookups by name. The decision table, the
 * environment overrides, the public cz_<coll>_<algo> entry points, the
 * benchmark and the tests all read it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define FN(f) ((void (*)(void))(f))
#define CZI_COLL_alltoall CZ_COLL_ALLTOALL
#define CZI_COLL_allgather CZ_COLL_ALLGATHER
#define CZI_COLL_bcast CZ_COLL_BCAST
#define CZI_COLL_alltoallv CZ_COLL_ALLTOALLV
#define CZI_COLL_allreduce CZ_COLL_ALLREDUCE

/* The list itself is common/algorithms.def. */
const czi_algorithm czi_algorithms[] = {
#define CZI_ALGORITHM(coll, name, param, param_default, param_min, param_max, \
                      summary)                                                \
  {#name,      CZI_COLL_##coll, FN(czi_##coll##_##name), param, param_default, \
   param_min,  param_max,       summary},
#include "algorithms.def"
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

const czi_algorithm *czi_algorithm_for_procs(const czi_algorithm *alg,
                                             int nprocs) {
  if (nprocs != 1 && strcmp(alg->name, "self") == 0)
    return czi_algorithm_find(alg->coll, "mpi", 3);
  return alg;
}

void czi_algorithm_format(const czi_algorithm *alg, int param, char *out,
                          size_t len) {
  if (alg->param_name && param != alg->param_default)
    snprintf(out, len, "%s:%d", alg->name, param);
  else
    snprintf(out, len, "%s", alg->name);
}
