/* control.c: where the trace goes and whether tracing happens at all.
 *
 * Rank 0 picks the directory (COLLECTIVIZE_TRACE_DIR, else
 * ./collectivize-trace-<YYYYmmdd-HHMMSS>), refuses one that already holds a
 * trace, creates it and writes the manifest, then broadcasts the outcome.
 * Any problem gives one warning (from rank 0, or from the rank that hit it)
 * and the program runs on untraced. At MPI_Finalize every rank closes the
 * archive and writes rank-N.done. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tracer.h"

CZT_HOT_DATA czt_state czt __attribute__((aligned(64)));
char czt_dir[4096];
pthread_mutex_t czt_mutex = PTHREAD_MUTEX_INITIALIZER;

atomic_int czt_nospace;

/* An empty rank-N.<what> file (CZ_TRACE_*_FMT): it takes no data block. */
static void mark_rank(const char *fmt) {
  char name[64], path[4200];
  snprintf(name, sizeof name, fmt, czt.rank);
  snprintf(path, sizeof path, "%s/%s", czt_dir, name);
  int fd = czt_open_private(path, O_WRONLY);
  if (fd >= 0) close(fd);
}

void czt_disable(const char *why) {
  static atomic_int warned;
  atomic_store(&czt.on, 0);
  if (atomic_exchange(&warned, 1) == 0) {
    czi_warn("trace: tracing stopped on this rank (%s); the program continues "
             "untraced, trace %s is incomplete",
             why, czt_dir);
    mark_rank(CZ_TRACE_STOPPED_FMT);
    if (atomic_load(&czt_nospace)) mark_rank(CZ_TRACE_NOSPACE_FMT);
  }
}

static int exists(const char *dir, const char *name) {
  char path[4200];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &st) == 0;
}

static void write_command(FILE *f) {
  FILE *in = fopen("/proc/self/cmdline", "rb");
  fputs("command", f);
  if (!in) {
    fputc('\n', f);
    return;
  }
  int c, start = 1;
  while ((c = fgetc(in)) != EOF) {
    if (start) fputc(' ', f);
    start = c == '\0';
    if (!start) fputc(c == '\n' ? ' ' : c, f);
  }
  fclose(in);
  fputc('\n', f);
}

/* Whether rank 0 created the trace directory (not the user before the run). */
static int created_dir;

/* A start that failed leaves nothing that looks like a trace: no manifest
 * (removed by the caller) and, when this run created it, no directory. */
static void remove_created_dir(const char *dir) {
  if (created_dir) rmdir(dir);
}

/* Rank 0: choose and create the directory, write the manifest. Returns 0,
 * or fills why. */
static int prepare_dir(char *dir, size_t len, char *why, size_t why_len) {
  const char *env = getenv("COLLECTIVIZE_TRACE_DIR");
  if (env && *env) {
    snprintf(dir, len, "%s", env);
    if (exists(dir, CZ_TRACE_MANIFEST) || exists(dir, CZ_TRACE_ARCHIVE ".otf2")) {
      snprintf(why, why_len,
               "%s already holds a trace (remove it or set "
               "COLLECTIVIZE_TRACE_DIR to a new directory)",
               dir);
      return -1;
    }
  } else {
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(dir, len, "collectivize-trace-%s", stamp);
    struct stat st;
    for (int i = 2; stat(dir, &st) == 0 && i < 1000; i++)
      snprintf(dir, len, "collectivize-trace-%s-%d", stamp, i);
  }
  if (czt_make_private_dir(dir, why, why_len, &created_dir) != 0) return -1;
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, CZ_TRACE_MANIFEST);
  /* O_EXCL: a concurrent run into the same directory loses here. */
  int fd = czt_open_private(path, O_WRONLY | O_EXCL);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    snprintf(why, why_len, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0) close(fd), unlink(path);
    remove_created_dir(dir);
    return -1;
  }
  fprintf(f, "format %d\nranks %d\nstarted %lld\nhash %s\n",
          CZ_TRACE_FORMAT_VERSION, czt.size, (long long)time(NULL),
          czt.hash_receives ? "both" : "send");
  /* Clocks skewed on purpose (tests): said, so that no one reads such a
   * trace's times as a node's real clock. */
  const char *skew = getenv("COLLECTIVIZE_TRACE_CLOCK_SKEW");
  if (skew && *skew) fprintf(f, "clock_skew %s\n", skew);
  czt_write_site_databases(f);
  write_command(f);
  if (fclose(f) != 0) {
    snprintf(why, why_len, "cannot write %s: %s", path, strerror(errno));
    unlink(path);
    remove_created_dir(dir);
    return -1;
  }
  return 0;
}

/* COLLECTIVIZE_TRACE_HASH: "send" (default) or "both". */
static void read_hash_mode(void) {
  const char *v = getenv("COLLECTIVIZE_TRACE_HASH");
  czt.hash_receives = 0;
  if (!v || !*v || strcmp(v, "send") == 0) return;
  if (strcmp(v, "both") == 0) {
    czt.hash_receives = 1;
    return;
  }
  if (czt.rank == 0)
    czi_warn("trace: COLLECTIVIZE_TRACE_HASH=%s is not 'send' or 'both'; "
             "using 'send'", v);
}

/* Rank 0, after a start that failed on some rank: the files of the
 * archive and the manifest go, then the directory if this run made it. */
static void remove_start_files(void) {
  static const char *const names[] = {CZ_TRACE_ARCHIVE ".otf2", CZ_TRACE_ARCHIVE ".def",
                                      CZ_TRACE_MANIFEST};
  char path[4200];
  for (int r = 0; r < czt.size; r++) {
    static const char *const fmts[] = {"%s/" CZ_TRACE_ARCHIVE "/%d.evt",
                                       "%s/" CZ_TRACE_ARCHIVE "/%d.def",
                                       "%s/" CZ_TRACE_COMMS_FMT, "%s/" CZ_TRACE_OBJECTS_FMT};
    for (int i = 0; i < 4; i++) {
      snprintf(path, sizeof path, fmts[i], czt_dir, r);
      unlink(path);
    }
  }
  snprintf(path, sizeof path, "%s/" CZ_TRACE_ARCHIVE, czt_dir);
  rmdir(path);
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", czt_dir, names[i]);
    unlink(path);
  }
  remove_created_dir(czt_dir);
}

void czt_start(int provided) {
  czt.world = MPI_COMM_WORLD;
  czt.self = MPI_COMM_SELF;
  PMPI_Comm_rank(MPI_COMM_WORLD, &czt.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &czt.size);
  czt_clock_init(); /* before the first timestamp */
  czt.threaded = provided == MPI_THREAD_MULTIPLE;
  read_hash_mode();
  czt_types_init();
  czt_comms_init();
  czt_mprobe_init();
  int status = 0;
  char why[600] = "";
  if (czt.rank == 0)
    status = prepare_dir(czt_dir, sizeof czt_dir, why, sizeof why);
  PMPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status != 0) {
    if (czt.rank == 0)
      czi_warn("trace: not tracing: %s; the program runs untraced", why);
    return;
  }
  PMPI_Bcast(czt_dir, (int)sizeof czt_dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (czt_archive_open(czt_dir) != 0) {
    /* Every rank has removed its own files; rank 0 removes the rest. */
    PMPI_Barrier(MPI_COMM_WORLD);
    if (czt.rank == 0) {
      czi_warn("trace: not tracing: cannot open the OTF2 archive in %s%s; the "
               "program runs untraced",
               czt_dir, atomic_load(&czt_nospace) ? " (no space left on device)" : "");
      remove_start_files();
    }
    return;
  }
  czt_comms_recovery_open(czt_dir);
  czt_write_objects(czt_dir);
  czt_blocks_open(czt_dir);
  czt.archive = 1;
  atomic_store(&czt.on, 1);
  CZI_LOG("trace: rank %d writes to %s", czt.rank, czt_dir);
}

/* OTF2 wrote its files with the umask's mode: this rank's get the trace's
 * (rank 0 the archive's shared ones). */
static void chmod_otf2_files(void) {
  char path[4200];
  static const char *const mine[] = {"evt", "def"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/" CZ_TRACE_ARCHIVE "/%d.%s", czt_dir, czt.rank, mine[i]);
    czt_chmod_private(path, 0);
  }
  if (czt.rank != 0) return;
  snprintf(path, sizeof path, "%s/" CZ_TRACE_ARCHIVE, czt_dir);
  czt_chmod_private(path, 1);
  snprintf(path, sizeof path, "%s/" CZ_TRACE_ARCHIVE ".otf2", czt_dir);
  czt_chmod_private(path, 0);
  snprintf(path, sizeof path, "%s/" CZ_TRACE_ARCHIVE ".def", czt_dir);
  czt_chmod_private(path, 0);
}

void czt_finish(void) {
  if (!czt.archive) return;
  if (czt_late_pending) czt_store_late();
  int complete = atomic_load(&czt.on);
  atomic_store(&czt.on, 0);
  uint64_t events = czt_event_count();
  czt_blocks_close();
  if (czt_archive_close() != 0) complete = 0;
  czt.archive = 0;
  chmod_otf2_files();
  if (!complete) {
    /* No rank-N.done: the reader and `trace repair` say what happened. */
    mark_rank(CZ_TRACE_FINALIZED_FMT);
    if (atomic_load(&czt_nospace)) mark_rank(CZ_TRACE_NOSPACE_FMT);
    return;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/" CZ_TRACE_DONE_FMT, czt_dir, czt.rank);
  FILE *f = czt_fopen_private(path);
  if (f) {
    fprintf(f, "events %llu\n", (unsigned long long)events);
    fclose(f);
  }
  /* COLLECTIVIZE_TRACE_ANNOUNCE=0: `collectivize run` says it itself. */
  const char *announce = getenv("COLLECTIVIZE_TRACE_ANNOUNCE");
  if (czt.rank == 0 && !getenv("COLLECTIVIZE_QUIET") && !(announce && strcmp(announce, "0") == 0))
    fprintf(stderr, "collectivize: trace written to %s\n", czt_dir);
}
