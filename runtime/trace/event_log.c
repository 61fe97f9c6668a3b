/* event_log.c: storing this rank's events in rank-N.ring and appending
 * full halves to rank-N.log (formats and recovery rules in event_log.h).
 *
 * The ring is mapped once and its pages faulted in at start, so recording
 * an event never touches a fresh page: on this kind of VM a fresh page
 * costs 10-25 us (the host backs guest memory lazily), i.e. 200-400 ns per
 * record if records went straight into a growing mapping. A full half is
 * copied into the log with one pwrite where the rank is about to wait
 * anyway (czt_at_wait_point), or at once when both halves are full. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracer.h"

#define HALF CZT_RING_HALF_RECORDS
#define RING_BYTES ((size_t)CZT_RING_HEADER_BYTES + 2 * (size_t)HALF * sizeof(czt_record))
_Static_assert(sizeof(czt_record) == 80, "records are 80 bytes");
_Static_assert(sizeof(czt_log_header) == sizeof(czt_record), "the log header is record-sized");
_Static_assert(sizeof(czt_ring_header) <= CZT_RING_HEADER_BYTES, "ring header fits");

czt_record *czt_log_cursor, *czt_log_end;
int czt_log_full_half = -1; /* a half waiting to be written to the log */
static unsigned char *ring;       /* the mapping */
static czt_ring_header *header;
static czt_record *halves[2];
static int filling;               /* the half czt_log_cursor is in */
static int log_fd = -1;
static char log_path[4200], ring_path[4200];
static char error[300];

const char *czt_log_error(void) { return error; }
const char *czt_log_path(void) { return log_path; }
const char *czt_ring_path(void) { return ring_path; }

static int fail(const char *what, const char *path, int err) {
  snprintf(error, sizeof error, "%s %s: %s", what, path, strerror(err));
  return -1;
}

int czt_log_open(const char *dir, int rank) {
  snprintf(log_path, sizeof log_path, "%s/" CZ_TRACE_LOG_FMT, dir, rank);
  snprintf(ring_path, sizeof ring_path, "%s/" CZ_TRACE_RING_FMT, dir, rank);
  log_fd = open(log_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (log_fd < 0) return fail("cannot create", log_path, errno);
  czt_log_header lh = {CZT_LOG_MAGIC, CZT_LOG_VERSION, sizeof(czt_record), {0}};
  if (pwrite(log_fd, &lh, sizeof lh, 0) != (ssize_t)sizeof lh)
    return fail("cannot write", log_path, errno ? errno : ENOSPC);
  int fd = open(ring_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
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
#ifdef MADV_POPULATE_WRITE
  madvise(ring, RING_BYTES, MADV_POPULATE_WRITE); /* best effort */
#endif
  header = (czt_ring_header *)ring;
  header->magic = CZT_LOG_MAGIC;
  header->version = CZT_LOG_VERSION;
  header->record_bytes = sizeof(czt_record);
  header->half_records = HALF;
  header->half_base[0] = 0;
  header->half_base[1] = CZT_RING_EMPTY;
  halves[0] = (czt_record *)(ring + CZT_RING_HEADER_BYTES);
  halves[1] = halves[0] + HALF;
  filling = 0;
  czt_log_cursor = halves[0];
  czt_log_end = halves[0] + HALF;
  return 0;
}

/* Half h into the log at its records' own offset, then emptied. */
static int write_half(int h, uint64_t records) {
  const unsigned char *p = (const unsigned char *)halves[h];
  size_t left = (size_t)records * sizeof(czt_record);
  off_t at = (off_t)(sizeof(czt_log_header) + header->half_base[h] * sizeof(czt_record));
  while (left > 0) {
    ssize_t n = pwrite(log_fd, p, left, at);
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

czt_record *czt_log_grow(void) {
  if (!ring || write_full_half() != 0) return NULL; /* both halves full */
  uint64_t next = header->half_base[filling] + HALF;
  czt_log_full_half = filling;
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
