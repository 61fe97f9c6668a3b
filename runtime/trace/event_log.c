/* event_log.c: storing this rank's events in rank-N.ring and appending
 * full halves to rank-N.log (formats and recovery rules in event_log.h).
 *
 * The ring is mapped once and its pages faulted in at start, so recording
 * an event never touches a fresh page: on this kind of VM a fresh page
 * costs 10-25 us (the host backs guest memory lazily), i.e. 200-400 ns per
 * record if records went straight into a growing mapping. A full half goes
 * to the log either from a writer thread while the program runs on
 * (COLLECTIVIZE_TRACE_WRITER=thread) or from the rank itself where it is
 * about to wait anyway (czt_at_wait_point; COLLECTIVIZE_TRACE_WRITER=
 * inline). The default (auto) takes the thread where it has a CPU of its
 * own to run on, or where the rank gives its CPU away while it waits
 * (Open MPI's mpi_yield_when_idle, which Open MPI also sets itself on an
 * oversubscribed node); it writes at the wait points when the launcher
 * bound the rank to one CPU (Open MPI does for up to 2 ranks: the thread
 * then shares the rank's core) or the node runs at least as many ranks as
 * it has CPUs, and the rank busy-polls. On the 2-core development VM, 2
 * bound ranks, alternating launches of each (bench/README.md, tracer
 * overhead, eleventh pass): yielding, the thread read 1.12 against 1.19
 * inline at 8 B ring (lower in 30 of 40 launch pairs) and 1.09 against
 * 1.12 at 1 KiB ping-pong (28 of 40); busy-polling, inline read 1.21
 * against 1.30 at 8 B ring (thread lower in 7 of 20). Either way a rank
 * that fills the other half before the full one is written waits for
 * it. */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <unistd.h>

#include "tracer.h"

#define HALF CZT_RING_HALF_RECORDS
#define RING_BYTES ((size_t)CZT_RING_HEADER_BYTES + 2 * (size_t)HALF * sizeof(czt_record))
/* No record size is pinned here: a new field grows czt_record (event_log.h
 * bumps CZT_LOG_VERSION; both headers give the size, readers refuse
 * another). What the files need of it is below. */
/* O_DIRECT wants file offsets, lengths and buffers aligned to the logical
 * block size (at most a page): halves start on pages in both files. */
_Static_assert(CZT_LOG_HEADER_BYTES % 4096 == 0 && CZT_RING_HEADER_BYTES % 4096 == 0 &&
                   (CZT_RING_HALF_RECORDS * sizeof(czt_record)) % 4096 == 0,
               "halves are page-aligned in the ring and in the log");
_Static_assert(sizeof(czt_ring_header) <= CZT_RING_HEADER_BYTES &&
                   sizeof(czt_log_header) <= CZT_LOG_HEADER_BYTES,
               "the headers fit their blocks");

CZT_HOT_DATA czt_record *czt_log_cursor, *czt_log_end;
CZT_HOT_DATA int czt_log_full_half = -1; /* inline mode: a half waiting to be written */
static unsigned char *ring;       /* the mapping */
static czt_ring_header *header;
static czt_record *halves[2];
static int filling;               /* the half czt_log_cursor is in */
static int log_fd = -1;
static int log_direct; /* log_fd has O_DIRECT */
static char log_path[4200], ring_path[4200];
static char error[300];

/* The writer thread: `handed` is the half it is to write (-1: none);
 * `write_failed` is set when a write failed (error says why). */
static pthread_t writer;
static int writer_started, writer_stop;
static pthread_mutex_t writer_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t writer_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t writer_done = PTHREAD_COND_INITIALIZER;
static atomic_int handed = -1, write_failed;
static void start_writer(void);

CZT_HOT_DATA int czt_clock_tsc;

/* COLLECTIVIZE_TRACE_CLOCK: "tsc" or "monotonic"; by default the TSC when
 * the CPU says it ticks at a constant rate in every power state. */
static int choose_tsc(void) {
#if defined(__x86_64__)
  const char *v = getenv("COLLECTIVIZE_TRACE_CLOCK");
  if (v && strcmp(v, "monotonic") == 0) return 0;
  if (v && *v && strcmp(v, "tsc") != 0 && czt.rank == 0)
    czi_warn("trace: COLLECTIVIZE_TRACE_CLOCK=%s is not 'tsc' or 'monotonic'; "
             "choosing by the CPU", v);
  if (v && strcmp(v, "tsc") == 0) return 1;
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[4096];
  int constant = 0, nonstop = 0;
  while (f && fgets(line, sizeof line, f) && strncmp(line, "flags", 5) != 0) {
  }
  if (f && strncmp(line, "flags", 5) == 0) {
    constant = strstr(line, " constant_tsc") != NULL;
    nonstop = strstr(line, " nonstop_tsc") != NULL;
  }
  if (f) fclose(f);
  return constant && nonstop;
#else
  return 0;
#endif
}

static czt_clock_pair clock_pair(void) {
  czt_clock_pair p = {0, czt_now()};
#if defined(__x86_64__)
  p.tsc = __rdtsc();
#endif
  return p;
}

const char *czt_log_error(void) { return error; }
const char *czt_log_path(void) { return log_path; }
const char *czt_ring_path(void) { return ring_path; }

static int fail(const char *what, const char *path, int err) {
  if (err == ENOSPC) atomic_store(&czt_nospace, 1);
  snprintf(error, sizeof error, "%s %s: %s", what, path, strerror(err));
  return -1;
}

int czt_log_open(const char *dir, int rank) {
  snprintf(log_path, sizeof log_path, "%s/" CZ_TRACE_LOG_FMT, dir, rank);
  snprintf(ring_path, sizeof ring_path, "%s/" CZ_TRACE_RING_FMT, dir, rank);
  log_fd = czt_open_private(log_path, O_WRONLY | O_EXCL);
  if (log_fd < 0) return fail("cannot create", log_path, errno);
  czt_clock_tsc = choose_tsc();
  union {
    czt_log_header h;
    unsigned char block[CZT_LOG_HEADER_BYTES];
  } lh = {{CZT_LOG_MAGIC, CZT_LOG_VERSION, sizeof(czt_record), (uint32_t)czt_clock_tsc, 0,
           {0}}};
  if (pwrite(log_fd, &lh, sizeof lh, 0) != (ssize_t)sizeof lh)
    return fail("cannot write", log_path, errno ? errno : ENOSPC);
  /* Halves bypass the page cache where the file system allows it (tmpfs
   * may not: then they are written through it, as before). */
  int flags = fcntl(log_fd, F_GETFL);
  log_direct = flags >= 0 && fcntl(log_fd, F_SETFL, flags | O_DIRECT) == 0;
  int fd = czt_open_private(ring_path, O_RDWR | O_EXCL);
  if (fd < 0) return fail("cannot create", ring_path, errno);
  /* Blocks reserved now: a store into a sparse page on a full disk would
   * be SIGBUS, not an error code. */
  int err = posix_fallocate(fd, 0, (off_t)RING_BYTES);
  void *p = err ? MAP_FAILED
                : mmap(NULL, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (!err && p == MAP_FAILED) err = errno;
  close(fd);
  if (err) return fail("cannot reserve", ring_path, err);
  ring = p;
  /* Every page written now (the blocks are reserved above), not faulted in
   * with MADV_POPULATE_WRITE: on this kind of VM stores into pages
   * populated that way stall ~50 us now and then, more often the more
   * pages the ring cycles through (bench/trace/ring_stalls.c: a 5 MiB ring
   * one stall per ~1,700 stores, 100 ticks a store on average, against 24
   * and almost no stalls once written), and at 8 B those stalls were most
   * of what the tracer added to a round trip on average. */
  memset(ring, 0, RING_BYTES);
  header = (czt_ring_header *)ring;
  header->magic = CZT_LOG_MAGIC;
  header->version = CZT_LOG_VERSION;
  header->record_bytes = sizeof(czt_record);
  header->half_records = HALF;
  header->half_base[0] = 0;
  header->half_base[1] = CZT_RING_EMPTY;
  header->clock = (uint32_t)czt_clock_tsc;
  if (czt_clock_tsc) {
    /* Two pairs 10 ms apart fix the TSC rate even if the rank is killed
     * before a later pair is taken. */
    header->start = clock_pair();
    struct timespec ten_ms = {0, 10 * 1000 * 1000};
    nanosleep(&ten_ms, NULL);
    header->start_later = header->latest = clock_pair();
  }
  halves[0] = (czt_record *)(ring + CZT_RING_HEADER_BYTES);
  halves[1] = halves[0] + HALF;
  filling = 0;
  czt_log_cursor = halves[0];
  czt_log_end = halves[0] + HALF;
  start_writer();
  return 0;
}

/* Half h into the log at its records' own offset, then emptied. */
static int write_half(int h, uint64_t records) {
  const unsigned char *p = (const unsigned char *)halves[h];
  size_t left = (size_t)records * sizeof(czt_record);
  off_t at = (off_t)(CZT_LOG_HEADER_BYTES + header->half_base[h] * sizeof(czt_record));
  while (left > 0) {
    ssize_t n = pwrite(log_fd, p, left, at);
    if (n < 0 && errno == EINVAL && log_direct) {
      /* Some file systems accept the flag but not the write: buffered. */
      log_direct = 0;
      fcntl(log_fd, F_SETFL, fcntl(log_fd, F_GETFL) & ~O_DIRECT);
      continue;
    }
    if (n <= 0) return fail("cannot write", log_path, n < 0 ? errno : ENOSPC);
    p += n;
    at += n;
    left -= (size_t)n;
  }
  memset(halves[h], 0, (size_t)records * sizeof(czt_record));
  header->half_base[h] = CZT_RING_EMPTY;
  return 0;
}

static int write_full_half(void) {
  int h = czt_log_full_half;
  if (h < 0) return 0;
  czt_log_full_half = -1;
  return write_half(h, HALF);
}

void czt_log_write_full(void) {
  CZT_LOCK();
  int rc = ring ? write_full_half() : 0;
  CZT_UNLOCK();
  if (rc) czt_log_failed();
}

static void *writer_main(void *unused) {
  (void)unused;
  pthread_mutex_lock(&writer_mutex);
  for (;;) {
    int h = atomic_load(&handed);
    if (h < 0 && writer_stop) break;
    if (h < 0) {
      pthread_cond_wait(&writer_wake, &writer_mutex);
      continue;
    }
    pthread_mutex_unlock(&writer_mutex);
    int rc = write_half(h, HALF);
    pthread_mutex_lock(&writer_mutex);
    if (rc) atomic_store(&write_failed, 1);
    atomic_store(&handed, -1);
    pthread_cond_broadcast(&writer_done);
  }
  pthread_mutex_unlock(&writer_mutex);
  return NULL;
}

/* Why a writer thread would have no CPU of its own (NULL: it would): the
 * rank may run on one CPU only, or the node's ranks (as the launcher
 * says: Open MPI, MPICH's Hydra) are at least as many as its CPUs. */
static const char *no_room_for_thread(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) <= 1)
    return "this rank is bound to one CPU";
  const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!local) local = getenv("MPI_LOCALNRANKS");
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (local && cpus > 0 && atol(local) >= cpus)
    return "the node runs as many ranks as it has CPUs";
  return NULL;
}

/* Whether this rank's MPI yields its CPU while it waits: Open MPI's
 * mpi_yield_when_idle, read through the tool interface (the value Open
 * MPI runs with, also when it set it itself). No such variable (MPICH):
 * taken as no, the ranks busy-poll. */
static int rank_yields_when_idle(void) {
  int provided, index, yields = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return 0;
  if (MPI_T_cvar_get_index("mpi_yield_when_idle", &index) == MPI_SUCCESS) {
    MPI_Datatype type;
    MPI_T_enum values;
    int verbosity, bind, scope, name_len = 0, desc_len = 0, count = 0;
    MPI_T_cvar_handle handle;
    /* Open MPI's boolean variables are MPI_C_BOOL. */
    if (MPI_T_cvar_get_info(index, NULL, &name_len, &verbosity, &type, &values, NULL,
                            &desc_len, &bind, &scope) == MPI_SUCCESS &&
        bind == MPI_T_BIND_NO_OBJECT && type == MPI_C_BOOL &&
        MPI_T_cvar_handle_alloc(index, NULL, &handle, &count) == MPI_SUCCESS) {
      _Bool on = 0;
      if (count == 1 && MPI_T_cvar_read(handle, &on) == MPI_SUCCESS) yields = on;
      MPI_T_cvar_handle_free(&handle);
    }
  }
  MPI_T_finalize();
  return yields;
}

/* COLLECTIVIZE_TRACE_WRITER: "auto" (default), "thread" or "inline". */
static void start_writer(void) {
  const char *mode = getenv("COLLECTIVIZE_TRACE_WRITER");
  if (mode && *mode && strcmp(mode, "thread") != 0 &&
      strcmp(mode, "inline") != 0 && strcmp(mode, "auto") != 0) {
    if (czt.rank == 0)
      czi_warn("trace: COLLECTIVIZE_TRACE_WRITER=%s is not 'auto', 'thread' or "
               "'inline'; using 'auto'", mode);
    mode = NULL;
  }
  const int forced_inline = mode && strcmp(mode, "inline") == 0;
  const int automatic = !mode || !*mode || strcmp(mode, "auto") == 0;
  const char *crowded = automatic ? no_room_for_thread() : NULL;
  if (forced_inline || (crowded && !rank_yields_when_idle())) {
    CZI_LOG("trace: rank %d writes its log at its wait points (%s)", czt.rank,
            forced_inline ? "COLLECTIVIZE_TRACE_WRITER=inline" : crowded);
    return;
  }
  if (crowded)
    CZI_LOG("trace: rank %d writes its log from a thread (%s, but it yields its CPU while it "
            "waits)", czt.rank, crowded);
  else
    CZI_LOG("trace: rank %d writes its log from a thread", czt.rank);
  /* Signals stay with the program's threads. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  writer_stop = 0;
  writer_started = pthread_create(&writer, NULL, writer_main, NULL) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void stop_writer(void) {
  if (!writer_started) return;
  pthread_mutex_lock(&writer_mutex);
  writer_stop = 1;
  pthread_cond_signal(&writer_wake);
  pthread_mutex_unlock(&writer_mutex);
  pthread_join(writer, NULL);
  writer_started = 0;
}

/* The filled half h goes to the log: handed to the writer thread (after it
 * finished the previous one), or marked for the next wait point. 0, or -1
 * when the log cannot be written. */
static int hand_over(int h) {
  if (!writer_started) {
    if (write_full_half() != 0) return -1; /* both halves full */
    czt_log_full_half = h;
    return 0;
  }
  pthread_mutex_lock(&writer_mutex);
  while (atomic_load(&handed) >= 0) pthread_cond_wait(&writer_done, &writer_mutex);
  int ok = !atomic_load(&write_failed);
  if (ok) {
    atomic_store(&handed, h);
    pthread_cond_signal(&writer_wake);
  }
  pthread_mutex_unlock(&writer_mutex);
  return ok ? 0 : -1;
}

czt_record *czt_log_grow(void) {
  if (!ring) return NULL;
  /* Before the hand-over: the writer empties that half's base once it is
   * written, possibly before hand_over returns. */
  uint64_t next = header->half_base[filling] + HALF;
  if (hand_over(filling) != 0) return NULL;
  if (czt_clock_tsc) header->latest = clock_pair();
  filling ^= 1;
  header->half_base[filling] = next;
  czt_log_cursor = halves[filling];
  czt_log_end = halves[filling] + HALF;
  return czt_log_cursor++;
}

uint64_t czt_log_records(void) {
  if (!ring) return 0;
  return header->half_base[filling] + (uint64_t)(czt_log_cursor - halves[filling]);
}

void czt_log_close(void) {
  stop_writer(); /* after writing what it was handed */
  if (header && czt_clock_tsc) header->latest = clock_pair();
  if (ring) munmap(ring, RING_BYTES);
  ring = NULL;
  header = NULL;
  czt_log_cursor = czt_log_end = NULL;
  czt_log_full_half = -1;
  if (log_fd >= 0) close(log_fd);
  log_fd = -1;
}

void czt_log_remove(void) {
  unlink(log_path);
  unlink(ring_path);
}
