/* event_log.c: appending this rank's events to <dir>/rank-N.log (format in
 * event_log.h).
 *
 * The log is a file mapped MAP_SHARED one segment at a time: a stored
 * record is in the page cache at once and survives SIGKILL, MPI_Abort or a
 * crash of the process (not of the machine). Segments are reserved with
 * posix_fallocate (a full disk is an error code here, not a SIGBUS on a
 * later store) and their pages faulted in writable in one madvise, so the
 * message path never takes a page fault. The next segment is prepared at a
 * point where the rank is about to wait anyway (czt_log_ahead), once the
 * current one is nearly full. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracer.h"

#define SEGMENT_BYTES ((size_t)CZT_LOG_SEGMENT_RECORDS * sizeof(czt_record))
_Static_assert(sizeof(czt_record) == 80, "records are 80 bytes");
_Static_assert(sizeof(czt_log_header) == sizeof(czt_record),
               "the header takes record 0");
_Static_assert(SEGMENT_BYTES % 4096 == 0, "segments start on pages");

czt_record *czt_log_cursor, *czt_log_end;
static czt_record *segment, *next_segment; /* mappings */
static uint64_t segment_index;             /* of `segment` in the file */
static int fd = -1;
static char path[4200];
static char error[300];

const char *czt_log_error(void) { return error; }
const char *czt_log_path(void) { return path; }

static czt_record *map_segment(uint64_t index) {
  off_t at = (off_t)(index * SEGMENT_BYTES);
  int err = posix_fallocate(fd, at, (off_t)SEGMENT_BYTES);
  if (err) {
    snprintf(error, sizeof error, "cannot grow %s: %s", path, strerror(err));
    return NULL;
  }
  void *p = mmap(NULL, SEGMENT_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, at);
  if (p == MAP_FAILED) {
    snprintf(error, sizeof error, "cannot map %s: %s", path, strerror(errno));
    return NULL;
  }
#ifdef MADV_POPULATE_WRITE
  madvise(p, SEGMENT_BYTES, MADV_POPULATE_WRITE); /* best effort */
#endif
  return p;
}

int czt_log_open(const char *dir, int rank) {
  snprintf(path, sizeof path, "%s/" CZ_TRACE_LOG_FMT, dir, rank);
  fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    snprintf(error, sizeof error, "cannot create %s: %s", path, strerror(errno));
    return -1;
  }
  segment = map_segment(0);
  if (!segment) {
    close(fd);
    fd = -1;
    unlink(path);
    return -1;
  }
  czt_log_header *h = (czt_log_header *)segment;
  h->magic = CZT_LOG_MAGIC;
  h->version = CZT_LOG_VERSION;
  h->record_bytes = sizeof(czt_record);
  segment_index = 0;
  czt_log_cursor = segment + 1;
  czt_log_end = segment + CZT_LOG_SEGMENT_RECORDS;
  return 0;
}

static void prepare(void) {
  if (!next_segment && segment) next_segment = map_segment(segment_index + 1);
}

void czt_log_prepare(void) {
  CZT_LOCK();
  prepare();
  CZT_UNLOCK();
}

czt_record *czt_log_grow(void) {
  if (!segment) return NULL;
  prepare();
  if (!next_segment) return NULL;
  munmap(segment, SEGMENT_BYTES);
  segment = next_segment;
  next_segment = NULL;
  segment_index++;
  czt_log_cursor = segment;
  czt_log_end = segment + CZT_LOG_SEGMENT_RECORDS;
  return czt_log_cursor++;
}

uint64_t czt_log_records(void) {
  if (!segment) return 0;
  return segment_index * CZT_LOG_SEGMENT_RECORDS +
         (uint64_t)(czt_log_cursor - segment) - 1;
}

const char *czt_log_close(void) {
  if (segment) munmap(segment, SEGMENT_BYTES);
  if (next_segment) munmap(next_segment, SEGMENT_BYTES);
  segment = next_segment = czt_log_cursor = czt_log_end = NULL;
  if (fd >= 0) close(fd);
  fd = -1;
  return path[0] ? path : NULL;
}
