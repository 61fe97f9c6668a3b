/* error.c: the runtime's single error and logging path (see cz_internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cz_internal.h"

static _Thread_local char last_error[512];
_Thread_local czi_thread_flags czi_flags;

/* cz_last_error() is libcollectivize's (src/api/last_error.c): this file is
 * also in the tracer, which must not export it. */
const char *czi_last_error(void) { return last_error; }
void czi_clear_error(void) {
  last_error[0] = '\0';
  czi_flags.error_pending = 0;
  czi_flags.lib_call = 0;
}

static int env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static void emit_text(const char *text) {
  if (env_flag("COLLECTIVIZE_QUIET")) return;
  int initialized = 0, finalized = 0, rank = -1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank >= 0)
    fprintf(stderr, "collectivize[rank %d]: %s\n", rank, text);
  else
    fprintf(stderr, "collectivize: %s\n", text);
}

int czi_fail(int code, const char *where, const char *fmt, ...) {
  int n = snprintf(last_error, sizeof last_error, "%s: ", where);
  if (n < 0 || (size_t)n >= sizeof last_error) n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
  va_end(ap);
  czi_flags.error_pending = 1;
  czi_flags.lib_call = 0; /* a message newer than any hand-over */
  emit_text(last_error);
  return code;
}

void czi_warn(const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  emit_text(text);
}

int czi_mpi_fail(int code, const char *where, const char *call) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0, cls = code;
  /* The error class's text, not the code's: MPICH 4.0 builds a code's text
   * from its error stack and, for some (a truncated MPI_Alltoallv on
   * MPI_COMM_SELF), overruns a buffer of its own and the callers' stack
   * with it; Open MPI's codes are their classes. */
  if (PMPI_Error_class(code, &cls) != MPI_SUCCESS) cls = code;
  if (PMPI_Error_string(cls, text, &len) != MPI_SUCCESS)
    snprintf(text, sizeof text, "MPI error %d", code);
  /* Keep only the function name of the wrapped call: "PMPI_Sendrecv(...)". */
  int name_len = (int)strcspn(call, "(");
  return czi_fail(code, where, "%.*s failed: %s", name_len, call, text);
}

int czi_log_enabled(void) {
  static int cached = -1;
  if (cached < 0) cached = env_flag("COLLECTIVIZE_LOG");
  return cached;
}

void czi_log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("collectivize: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
