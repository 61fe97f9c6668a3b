/* table.c: the decision table's text format (see registry.h): parse, look up,
 * write. Errors name the source, the line and the problem. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define BYTES_MAX LLONG_MAX

static int fail_at(char *err, size_t errlen, const char *source, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail_at(char *err, size_t errlen, const char *source, int line,
                   const char *fmt, ...) {
  int n = snprintf(err, errlen, "%s:%d: ", source, line);
  if (n < 0 || (size_t)n >= errlen) return MPI_ERR_ARG;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return MPI_ERR_ARG;
}

/* One bound: digits with an optional K/M/G suffix; "*" means unbounded. */
static int parse_bound(const char *s, size_t len, int allow_suffix,
                       long long unbounded, long long *out) {
  if (len == 1 && s[0] == '*') {
    *out = unbounded;
    return 0;
  }
  if (len == 0 || !isdigit((unsigned char)s[0])) return -1;
  long long value = 0;
  size_t i = 0;
  for (; i < len && isdigit((unsigned char)s[i]); i++) {
    if (value > (LLONG_MAX - 9) / 10) return -1;
    value = value * 10 + (s[i] - '0');
  }
  if (i < len) {
    if (!allow_suffix || i + 1 != len) return -1;
    int shift = 0;
    switch (toupper((unsigned char)s[i])) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      default: return -1;
    }
    if (value > (LLONG_MAX >> shift)) return -1;
    value <<= shift;
  }
  *out = value;
  return 0;
}

/* "lo-hi", "v", "*", "lo-*". */
static int parse_range(const char *s, int allow_suffix, long long *lo,
                       long long *hi) {
  size_t len = strlen(s);
  if (len == 1 && s[0] == '*') {
    *lo = 0;
    *hi = BYTES_MAX;
    return 0;
  }
  const char *dash = strchr(s, '-');
  if (!dash) {
    if (parse_bound(s, len, allow_suffix, -1, lo) || *lo < 0) return -1;
    *hi = *lo;
    return 0;
  }
  if (parse_bound(s, (size_t)(dash - s), allow_suffix, -1, lo) || *lo < 0)
    return -1;
  if (parse_bound(dash + 1, strlen(dash + 1), allow_suffix, BYTES_MAX, hi))
    return -1;
  return *hi < *lo ? -2 : 0;
}

void czi_table_free(czi_table *table) {
  free(table->rules);
  table->rules = NULL;
  table->count = 0;
}

int czi_table_parse(const char *text, const char *source, czi_table *table,
                    char *err, size_t errlen) {
  int capacity = 16, line_no = 0, rc = MPI_SUCCESS;
  czi_table t;
  memset(&t, 0, sizeof t);
  snprintf(t.source, sizeof t.source, "%s", source);
  t.rules = malloc(sizeof(czi_rule) * (size_t)capacity);
  if (!t.rules) return fail_at(err, errlen, source, 0, "out of memory");

  const char *p = text;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    line_no++;
    char line[1024];
    if (len >= sizeof line) {
      rc = fail_at(err, errlen, source, line_no, "line longer than %zu characters",
                   sizeof line - 1);
      goto done;
    }
    memcpy(line, p, len);
    line[len] = '\0';
    p = eol ? eol + 1 : p + len;
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';

    char *fields[5];
    int nfields = 0;
    for (char *tok = strtok(line, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
      if (nfields == 5) break;
      fields[nfields++] = tok;
    }
    if (nfields == 0) continue;
    if (nfields != 4) {
      rc = fail_at(err, errlen, source, line_no,
                   "expected 4 fields '<collective> <procs> <bytes> "
                   "<algorithm>', found %s%d",
                   nfields == 5 ? "more than " : "", nfields == 5 ? 4 : nfields);
      goto done;
    }
    czi_rule r;
    memset(&r, 0, sizeof r);
    r.line = line_no;
    if (czi_collective_parse(fields[0], strlen(fields[0]), &r.coll)) {
      rc = fail_at(err, errlen, source, line_no,
                   "unknown collective '%s' (valid: alltoall allgather bcast "
                   "alltoallv allreduce)", fields[0]);
      goto done;
    }
    long long lo, hi;
    int prc = parse_range(fields[1], 0, &lo, &hi);
    if (prc == 0 && strcmp(fields[1], "*") == 0) lo = 1;
    if (prc || lo < 1 || lo > INT_MAX || (hi > INT_MAX && hi != BYTES_MAX)) {
      rc = fail_at(err, errlen, source, line_no,
                   prc == -2 ? "process range '%s' ends before it starts"
                             : "bad process range '%s' (want N, LO-HI, LO-* or "
                               "*, with 1 <= N <= 2147483647)",
                   fields[1]);
      goto done;
    }
    r.procs_lo = (int)lo;
    r.procs_hi = hi == BYTES_MAX ? INT_MAX : (int)hi;
    prc = parse_range(fields[2], 1, &r.bytes_lo, &r.bytes_hi);
    if (prc) {
      rc = fail_at(err, errlen, source, line_no,
                   prc == -2 ? "byte range '%s' ends before it starts"
                             : "bad byte range '%s' (want N, LO-HI, LO-* or *; "
                               "K/M/G suffixes allowed)",
                   fields[2]);
      goto done;
    }
    char why[512];
    if (czi_algorithm_parse(r.coll, fields[3], &r.alg, &r.param, why,
                            sizeof why)) {
      rc = fail_at(err, errlen, source, line_no, "%s", why);
      goto done;
    }
    /* alltoallv bytes are the mean bytes per non-empty block, which only a
     * plan knows (every rank agrees on it when the plan is made). */
    if (r.coll == CZ_COLL_ALLTOALLV && strcmp(fields[2], "*") != 0 &&
        strcmp(r.alg->name, "planned") != 0) {
      rc = fail_at(err, errlen, source, line_no,
                   "alltoallv rules must use '*' for bytes unless the "
                   "algorithm is planned: ranks hold different amounts, and "
                   "all must pick the same algorithm");
      goto done;
    }
    /* self is a local copy on one process; on more it would quietly be
     * the library's collective, which a rule should say as mpi. */
    if (strcmp(r.alg->name, "self") == 0 &&
        (r.procs_lo != 1 || r.procs_hi != 1)) {
      rc = fail_at(err, errlen, source, line_no,
                   "self is for one process: its rule must say 1 for procs "
                   "(got '%s')", fields[1]);
      goto done;
    }
    if (t.count == capacity) {
      capacity *= 2;
      czi_rule *grown = realloc(t.rules, sizeof(czi_rule) * (size_t)capacity);
      if (!grown) {
        rc = fail_at(err, errlen, source, line_no, "out of memory");
        goto done;
      }
      t.rules = grown;
    }
    t.rules[t.count++] = r;
  }
done:
  if (rc != MPI_SUCCESS) {
    czi_table_free(&t);
    memset(table, 0, sizeof *table);
    return rc;
  }
  *table = t;
  return MPI_SUCCESS;
}

int czi_table_load_file(const char *path, czi_table *table, char *err,
                        size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return MPI_ERR_FILE;
  }
  size_t cap = 4096, len = 0, got;
  char *text = malloc(cap);
  while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (len + 1 == cap) {
      if (cap >= (1u << 24)) break; /* 16 MiB: no real table is that big */
      char *grown = realloc(text, cap * 2);
      if (!grown) { free(text); text = NULL; break; }
      text = grown;
      cap *= 2;
    }
  }
  int read_error = ferror(f);
  fclose(f);
  if (!text || read_error || len + 1 == cap) {
    free(text);
    snprintf(err, errlen, "%s: cannot read (I/O error or larger than 16 MiB)",
             path);
    return MPI_ERR_FILE;
  }
  text[len] = '\0';
  if (memchr(text, '\0', len)) {
    free(text);
    snprintf(err, errlen, "%s: is not a text file (contains NUL bytes)", path);
    return MPI_ERR_FILE;
  }
  int rc = czi_table_parse(text, path, table, err, errlen);
  free(text);
  return rc;
}

const czi_rule *czi_table_lookup(const czi_table *table, cz_collective coll,
                                 int nprocs, long long bytes) {
  for (int i = 0; i < table->count; i++) {
    const czi_rule *r = &table->rules[i];
    if (r->coll != coll || nprocs < r->procs_lo || nprocs > r->procs_hi)
      continue;
    /* bytes < 0: unknown (an alltoallv call before planning): a planned
     * rule matches any size, since the plan decides later. */
    if (bytes < 0 ? (r->bytes_lo == 0 && r->bytes_hi == BYTES_MAX) ||
                        strcmp(r->alg->name, "planned") == 0
                  : bytes >= r->bytes_lo && bytes <= r->bytes_hi)
      return r;
  }
  return NULL;
}

static void write_bound(FILE *out, long long v) {
  if (v == BYTES_MAX) fputc('*', out);
  else if (v > 0 && v % (1LL << 20) == 0) fprintf(out, "%lldM", v >> 20);
  else if (v > 0 && v % 1024 == 0) fprintf(out, "%lldK", v >> 10);
  else fprintf(out, "%lld", v);
}

void czi_table_write(const czi_table *table, FILE *out) {
  for (int i = 0; i < table->count; i++) {
    const czi_rule *r = &table->rules[i];
    char procs[64], alg[96];
    if (r->procs_lo == 1 && r->procs_hi == INT_MAX) snprintf(procs, sizeof procs, "*");
    else if (r->procs_hi == INT_MAX) snprintf(procs, sizeof procs, "%d-*", r->procs_lo);
    else if (r->procs_lo == r->procs_hi) snprintf(procs, sizeof procs, "%d", r->procs_lo);
    else snprintf(procs, sizeof procs, "%d-%d", r->procs_lo, r->procs_hi);
    czi_algorithm_format(r->alg, r->param, alg, sizeof alg);
    fprintf(out, "%-10s %-8s ", cz_collective_name(r->coll), procs);
    if (r->bytes_lo == 0 && r->bytes_hi == BYTES_MAX) {
      fputs("*", out);
    } else {
      write_bound(out, r->bytes_lo);
      if (r->bytes_hi != r->bytes_lo) {
        fputc('-', out);
        write_bound(out, r->bytes_hi);
      }
    }
    fprintf(out, "\t%s\n", alg);
  }
}
