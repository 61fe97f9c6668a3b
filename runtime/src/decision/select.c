/* select.c: which algorithm a cz_<coll> call runs. Order: the environment
 * (COLLECTIVIZE_<COLL>_ALGORITHM), the table in COLLECTIVIZE_TUNING, the
 * built-in table, and finally the MPI library's own collective. Bad settings
 * are reported once, naming the problem, and ignored (never a wrong result). */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

typedef struct config {
  czi_table table;
  czi_choice forced[CZ_COLL_COUNT]; /* alg NULL: not forced */
} config;

static config cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

static void load_config(void) {
  char err[768];
  const char *path = getenv("COLLECTIVIZE_TUNING");
  int loaded = 0;
  if (path && *path) {
    if (czi_table_load_file(path, &cfg.table, err, sizeof err) == MPI_SUCCESS)
      loaded = 1;
    else
      czi_warn("COLLECTIVIZE_TUNING: %s; using the built-in decision table", err);
  }
  if (!loaded &&
      czi_table_parse(czi_builtin_table_text, "built-in", &cfg.table, err,
                      sizeof err) != MPI_SUCCESS)
    czi_warn("%s (built-in table is broken: every call uses the MPI library)",
             err);

  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    char var[64];
    const char *name = cz_collective_name((cz_collective)c);
    size_t i = 0;
    i += (size_t)snprintf(var, sizeof var, "COLLECTIVIZE_");
    for (const char *s = name; *s && i < sizeof var - 1; s++)
      var[i++] = (char)toupper((unsigned char)*s);
    var[i] = '\0';
    strncat(var, "_ALGORITHM", sizeof var - strlen(var) - 1);
    const char *value = getenv(var);
    if (!value || !*value) continue;
    czi_choice choice;
    if (czi_algorithm_parse((cz_collective)c, value, &choice.alg, &choice.param,
                            err, sizeof err) == MPI_SUCCESS)
      cfg.forced[c] = choice;
    else
      czi_warn("%s rejected: %s; using the decision table instead", var, err);
  }
}

static void ensure_loaded(void) { pthread_once(&cfg_once, load_config); }

int czi_select(cz_collective coll, int nprocs, long long bytes,
               czi_choice *choice) {
  ensure_loaded();
  if (cfg.forced[coll].alg) {
    *choice = cfg.forced[coll];
    choice->alg = czi_algorithm_for_procs(choice->alg, nprocs);
    choice->from_table = 0;
    return MPI_SUCCESS;
  }
  const czi_rule *rule = czi_table_lookup(&cfg.table, coll, nprocs, bytes);
  choice->from_table = 1;
  if (rule) {
    choice->alg = rule->alg;
    choice->param = rule->param;
    return MPI_SUCCESS;
  }
  choice->alg = czi_algorithm_find(coll, "mpi", 3);
  choice->param = 0;
  return MPI_SUCCESS;
}

int czi_select_alltoallv_plan(int nprocs, long long mean_block,
                              czi_choice *choice) {
  ensure_loaded();
  const czi_rule *rule = czi_table_lookup(&cfg.table, CZ_COLL_ALLTOALLV, nprocs,
                                          mean_block < 0 ? 0 : mean_block);
  choice->from_table = 1;
  choice->alg = rule ? rule->alg : czi_algorithm_find(CZ_COLL_ALLTOALLV, "mpi", 3);
  choice->param = rule ? rule->param : 0;
  return MPI_SUCCESS;
}

int cz_selected_algorithm(cz_collective coll, int nprocs, long long bytes,
                          char *name, int len) {
  czi_clear_error();
  if ((unsigned)coll >= CZ_COLL_COUNT)
    return czi_fail(MPI_ERR_ARG, __func__, "unknown collective %d", (int)coll);
  if (nprocs < 1)
    return czi_fail(MPI_ERR_ARG, __func__, "nprocs must be >= 1 (got %d)", nprocs);
  if (bytes < 0)
    return czi_fail(MPI_ERR_ARG, __func__, "bytes must be >= 0 (got %lld)", bytes);
  if (!name || len <= 0)
    return czi_fail(MPI_ERR_ARG, __func__, "no room for the name");
  czi_choice choice;
  int rc = czi_select(coll, nprocs, bytes, &choice);
  if (rc == MPI_SUCCESS)
    czi_algorithm_format(choice.alg, choice.param, name, (size_t)len);
  return rc;
}

int cz_decision_table_check(const char *path, char *message, int len) {
  czi_table table;
  char err[768] = "";
  if (!path)
    return czi_fail(MPI_ERR_ARG, __func__, "path is NULL");
  int rc = czi_table_load_file(path, &table, err, sizeof err);
  if (rc == MPI_SUCCESS) czi_table_free(&table);
  if (message && len > 0) snprintf(message, (size_t)len, "%s", err);
  return rc;
}
