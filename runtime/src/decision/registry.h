/* registry.h: the algorithm registry (names, entry points, parameters), the
 * decision table and the selection logic used by the cz_<coll> entry points. */
#ifndef CZ_REGISTRY_H
#define CZ_REGISTRY_H

#include <stdio.h>

#include "cz_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czi_algorithm {
  const char *name;       /* as written in tables and the environment */
  cz_collective coll;
  void (*fn)(void);       /* czi_<coll>_fn, cast by the caller */
  const char *param_name; /* "radix", or NULL: takes no parameter */
  int param_default, param_min, param_max;
  const char *summary;    /* one line, for --help style listings */
} czi_algorithm;

/* All algorithms, terminated by a NULL name. */
extern const czi_algorithm czi_algorithms[];

const czi_algorithm *czi_algorithm_find(cz_collective coll, const char *name,
                                        size_t name_len);
/* What alg means on nprocs processes: self (a local copy) is for one
 * process only; forced or named on more, it is the library's own ("mpi"). */
const czi_algorithm *czi_algorithm_for_procs(const czi_algorithm *alg,
                                             int nprocs);
/* Parse "name" or "name:param". On failure writes a message naming the
 * valid algorithms to err and returns MPI_ERR_ARG. */
int czi_algorithm_parse(cz_collective coll, const char *text,
                        const czi_algorithm **alg, int *param, char *err,
                        size_t errlen);
/* "bruck" or "bruck:4" (param shown only when it differs from the default). */
void czi_algorithm_format(const czi_algorithm *alg, int param, char *out,
                          size_t len);
int czi_collective_parse(const char *text, size_t len, cz_collective *coll);

/* ---- decision table -------------------------------------------------------
 * Text format, one rule per line, first match wins, '#' starts a comment:
 *   <collective> <procs> <bytes> <algorithm>[:<param>]
 * procs and bytes are inclusive ranges "lo-hi", a single value, "*" (any),
 * or "lo-*" (lo and more); bytes take K/M/G suffixes (powers of 1024).
 * bytes means per block for alltoall and allgather, the whole message for
 * bcast; alltoallv rules must say "*" (ranks hold different amounts, and all
 * ranks must choose alike), except rules naming planned, whose bytes are the
 * mean bytes per non-empty block that a plan learns collectively: a lookup
 * with bytes < 0 (unknown) matches those whatever their range. No matching
 * rule: the library's own ("mpi"). */
typedef struct czi_rule {
  cz_collective coll;
  int procs_lo, procs_hi;
  long long bytes_lo, bytes_hi;
  const czi_algorithm *alg;
  int param;
  int line;
} czi_rule;

typedef struct czi_table {
  czi_rule *rules;
  int count;
  char source[256]; /* file name, or "built-in" */
} czi_table;

/* Parses text; on error returns MPI_ERR_ARG with "SOURCE:LINE: problem" in
 * err and leaves *table empty. */
int czi_table_parse(const char *text, const char *source, czi_table *table,
                    char *err, size_t errlen);
int czi_table_load_file(const char *path, czi_table *table, char *err,
                        size_t errlen);
void czi_table_free(czi_table *table);
const czi_rule *czi_table_lookup(const czi_table *table, cz_collective coll,
                                 int nprocs, long long bytes);
/* Writes the table back in its text format. */
void czi_table_write(const czi_table *table, FILE *out);

/* The built-in table (runtime/data/decision-table.txt compiled in). */
extern const char czi_builtin_table_text[];

/* ---- selection ---------------------------------------------------------- */
typedef struct czi_choice {
  const czi_algorithm *alg;
  int param;
  int from_table; /* 0: forced through the environment */
} czi_choice;

/* Environment override, else COLLECTIVIZE_TUNING's table, else built-in. */
int czi_select(cz_collective coll, int nprocs, long long bytes,
               czi_choice *choice);
/* What a plan for alltoallv on nprocs ranks runs, given the mean bytes per
 * non-empty block (known to every rank once the plan is made): the first
 * alltoallv rule matching both; a forced algorithm is not consulted here. */
int czi_select_alltoallv_plan(int nprocs, long long mean_block,
                              czi_choice *choice);

#ifdef __cplusplus
}
#endif
#endif
