/* event_encode.c: event log records -> OTF2 records (see event_log.h). */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "event_log.h"

/* A tiny payload's CRC-32, left to the conversion by the tracer. */
static void crc_from_prefix(czt_record *r) {
  if (!(r->flags & CZT_REC_HASHED) || r->bytes > CZT_CRC_FROM_PREFIX_BYTES) return;
  unsigned char b[CZT_CRC_FROM_PREFIX_BYTES];
  for (unsigned i = 0; i < CZT_CRC_FROM_PREFIX_BYTES; i++) b[i] = (unsigned char)(r->prefix >> (8 * i));
  r->crc = (uint32_t)crc32_z(0L, b, (z_size_t)r->bytes);
}

static void site_attrs(OTF2_AttributeList *a, const czt_record *r) {
  OTF2_AttributeList_AddUint64(a, czt_site_attribute(r), r->site);
}

static void msg_attrs(OTF2_AttributeList *a, const czt_record *r) {
#define CZT_ADD_ATTRIBUTE(attribute, type, value, when) \
  if (when) OTF2_AttributeList_Add##type(a, attribute, value);
  CZT_MESSAGE_ATTRIBUTES(CZT_ADD_ATTRIBUTE)
#undef CZT_ADD_ATTRIBUTE
}

uint64_t czt_clock_ns(const czt_clock_map *m, uint64_t t) {
  if (!m->tsc || m->b.tsc == m->a.tsc) return t;
  long double slope = (long double)(m->b.ns - m->a.ns) / (long double)(m->b.tsc - m->a.tsc);
  long double ns = (long double)m->a.ns + ((long double)t - (long double)m->a.tsc) * slope;
  /* A corrupt calibration (a ring left by a killed rank) can put ns
   * outside 64 bits, where the conversion is undefined: saturate. */
  if (!(ns > 0)) return 0;
  return ns >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)ns;
}

OTF2_ErrorCode czt_record_encode(OTF2_EvtWriter *w, OTF2_AttributeList *a,
                                 const czt_record *r) {
  switch (r->kind) {
  case CZT_REC_SEND:
    msg_attrs(a, r);
    return OTF2_EvtWriter_MpiSend(w, a, r->t, r->peer, r->ref, r->tag, r->bytes);
  case CZT_REC_ISEND:
    msg_attrs(a, r);
    return OTF2_EvtWriter_MpiIsend(w, a, r->t, r->peer, r->ref, r->tag, r->bytes,
                                   r->req);
  case CZT_REC_ISEND_COMPLETE:
    return OTF2_EvtWriter_MpiIsendComplete(w, NULL, r->t, r->req);
  case CZT_REC_RECV:
    msg_attrs(a, r);
    return OTF2_EvtWriter_MpiRecv(w, a, r->t, r->peer, r->ref, r->tag, r->bytes);
  case CZT_REC_IRECV_REQUEST:
    return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, r->t, r->req);
  case CZT_REC_IRECV:
    msg_attrs(a, r);
    return OTF2_EvtWriter_MpiIrecv(w, a, r->t, r->peer, r->ref, r->tag, r->bytes,
                                   r->req);
  case CZT_REC_CANCELLED:
    return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, r->t, r->req);
  case CZT_REC_COLL_BEGIN:
    return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, r->t);
  case CZT_REC_COLL_END: {
    int has_root = (r->flags & CZT_REC_HAS_ROOT) != 0;
    site_attrs(a, r);
    if (has_root) OTF2_AttributeList_AddUint32(a, CZT_ATTR_PEER_WORLD, r->peer_world);
    return OTF2_EvtWriter_MpiCollectiveEnd(
        w, a, r->t, (OTF2_CollectiveOp)r->count, r->ref,
        has_root ? r->peer : OTF2_UNDEFINED_UINT32, r->bytes, r->req);
  }
  case CZT_REC_ENTER:
    return OTF2_EvtWriter_Enter(w, NULL, r->t, (OTF2_RegionRef)r->tag);
  case CZT_REC_LEAVE:
    OTF2_AttributeList_AddCommRef(a, CZT_ATTR_NEW_COMM, r->peer);
    OTF2_AttributeList_AddCommRef(a, CZT_ATTR_COMM, r->ref);
    site_attrs(a, r);
    if (r->flags & CZT_REC_HAS_COLOR)
      OTF2_AttributeList_AddUint32(a, CZT_ATTR_COLOR, r->count);
    return OTF2_EvtWriter_Leave(w, a, r->t, (OTF2_RegionRef)r->tag);
  }
  return OTF2_ERROR_INVALID_DATA;
}

typedef struct mapped {
  const char *path;
  const unsigned char *base;
  size_t size;
} mapped;

/* Maps path read-only. 0 (m->base NULL when the file does not exist), or
 * -1 with why filled. */
static int map_file(const char *path, mapped *m, char *why, size_t why_len) {
  m->path = path;
  m->base = NULL;
  m->size = 0;
  if (!path) return 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return 0;
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(why, why_len, "%s: cannot read: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  m->size = (size_t)st.st_size;
  void *p = m->size ? mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  close(fd);
  if (p == MAP_FAILED) {
    snprintf(why, why_len, "%s: cannot map: %s", path, strerror(errno));
    return -1;
  }
  if (p) madvise(p, m->size, MADV_SEQUENTIAL);
  m->base = p ? p : (const unsigned char *)"";
  return 0;
}

static void unmap_file(mapped *m) {
  if (m->base && m->size) munmap((void *)m->base, m->size);
}

/* Both headers begin with magic, version and record size. */
static int header_ok(const czt_log_bytes *m, size_t header_bytes, char *why, size_t why_len) {
  if (m->size < header_bytes) {
    snprintf(why, why_len, "%s: shorter than its header (%zu bytes)", m->name, m->size);
    return -1;
  }
  czt_log_header h;
  memcpy(&h, m->base, sizeof h);
  if (h.magic != CZT_LOG_MAGIC || h.version != CZT_LOG_VERSION ||
      h.record_bytes != sizeof(czt_record)) {
    snprintf(why, why_len,
             "%s: offset 0: not a Collectivize event file of this version "
             "(magic, version or record size differ)",
             m->name);
    return -1;
  }
  return 0;
}

int czt_log_walk(const czt_log_bytes *log, const czt_log_bytes *ring,
                 czt_record_fn on_record, void *ctx, czt_rank_span *span,
                 char *why, size_t why_len) {
  span->events = span->first = span->last = 0;
  int rc = 0;
  int log_clock = -1;
  czt_clock_map map = {0};
  const unsigned char *log_records = NULL, *ring_records = NULL;
  uint64_t n_log = 0, half = 0, base[2] = {CZT_RING_EMPTY, CZT_RING_EMPTY};
  if (log->base) {
    rc = header_ok(log, CZT_LOG_HEADER_BYTES, why, why_len);
    if (rc == 0) {
      czt_log_header h;
      memcpy(&h, log->base, sizeof h);
      log_records = log->base + CZT_LOG_HEADER_BYTES;
      n_log = (log->size - CZT_LOG_HEADER_BYTES) / sizeof(czt_record);
      log_clock = (int)h.clock;
    }
  }
  if (rc == 0 && ring->base) {
    rc = header_ok(ring, CZT_RING_HEADER_BYTES, why, why_len);
    czt_ring_header h;
    if (rc == 0) {
      memcpy(&h, ring->base, sizeof h);
      half = h.half_records;
      /* (a half never holds more records than fit in the ring) */
      if (half == 0 || half > ring->size / sizeof(czt_record) / 2 ||
          ring->size < CZT_RING_HEADER_BYTES + 2 * half * sizeof(czt_record)) {
        snprintf(why, why_len, "%s: offset %zu: truncated (%zu bytes for two "
                 "halves of %llu records)", ring->name, ring->size, ring->size,
                 (unsigned long long)half);
        rc = -1;
      }
    }
    if (rc == 0) {
      base[0] = h.half_base[0];
      base[1] = h.half_base[1];
      for (int k = 0; k < 2 && rc == 0; k++)
        if (base[k] != CZT_RING_EMPTY && base[k] % half != 0) {
          snprintf(why, why_len, "%s: offset %zu: half %d starts at record %llu, "
                   "not a multiple of %llu", ring->name,
                   (size_t)offsetof(czt_ring_header, half_base) + 8 * (size_t)k, k,
                   (unsigned long long)base[k], (unsigned long long)half);
          rc = -1;
        }
      map.tsc = h.clock == CZT_CLOCK_TSC;
      map.a = h.start;
      /* The latest pair when it is far enough from the start to fix the
       * rate, else the one taken 10 ms after the start. */
      map.b = h.latest.ns - h.start.ns >= h.start_later.ns - h.start.ns
                  ? h.latest
                  : h.start_later;
      if (rc == 0 && map.tsc && (map.b.tsc <= map.a.tsc || map.b.ns <= map.a.ns)) {
        snprintf(why, why_len, "%s: offset 0: the clock calibration is unusable "
                 "(TSC pairs not increasing)", ring->name);
        rc = -1;
      }
      ring_records = ring->base + CZT_RING_HEADER_BYTES;
    }
  }
  if (rc == 0 && log_clock == CZT_CLOCK_TSC && !ring->base) {
    snprintf(why, why_len, "%s: its timestamps are TSC ticks and %s, which "
             "holds their calibration, is missing", log->name,
             ring->name ? ring->name : "the ring file");
    rc = -1;
  }
  for (uint64_t i = 0; rc == 0; i++) {
    czt_record r;
    const czt_log_bytes *from = NULL;
    size_t at = 0;
    /* The log first: a half is zeroed only after its pwrite completed, and
     * a kill during the zeroing leaves records in the ring whose fields are
     * already zero but whose kind is not. Records are copied out: a file's
     * bytes need not be aligned for them. */
    if (i < n_log) {
      at = CZT_LOG_HEADER_BYTES + (size_t)i * sizeof(czt_record);
      memcpy(&r, log_records + (size_t)i * sizeof(czt_record), sizeof r);
      if (r.kind != CZT_REC_END) from = log;
    }
    for (int k = 0; k < 2 && !from && ring_records; k++)
      if (base[k] != CZT_RING_EMPTY && i >= base[k] && i - base[k] < half) {
        size_t index = (size_t)((uint64_t)k * half + (i - base[k]));
        memcpy(&r, ring_records + index * sizeof(czt_record), sizeof r);
        at = CZT_RING_HEADER_BYTES + index * sizeof(czt_record);
        if (r.kind != CZT_REC_END) from = ring;
      }
    if (!from) break;
    if (r.kind >= CZT_REC_KINDS) {
      snprintf(why, why_len, "%s: offset %zu: unknown record kind %u", from->name, at,
               r.kind);
      rc = -1;
      break;
    }
    crc_from_prefix(&r);
    /* Timestamps never go backwards within a location. */
    r.t = czt_clock_ns(&map, r.t);
    if (span->events && r.t < span->last) r.t = span->last;
    if (on_record && on_record(ctx, &r) != 0) {
      snprintf(why, why_len, "%s: cannot write event %llu", from->name,
               (unsigned long long)i);
      rc = -1;
      break;
    }
    if (span->events++ == 0) span->first = r.t;
    span->last = r.t;
  }
  return rc;
}

typedef struct encode_ctx {
  OTF2_EvtWriter *w;
  OTF2_AttributeList *attrs;
  OTF2_ErrorCode error;
} encode_ctx;

static int encode_one(void *ctx, const czt_record *r) {
  encode_ctx *c = ctx;
  c->error = czt_record_encode(c->w, c->attrs, r);
  return c->error == OTF2_SUCCESS ? 0 : -1;
}

int czt_log_convert(const char *log_path, const char *ring_path,
                    OTF2_EvtWriter *w, czt_rank_span *span, char *why,
                    size_t why_len) {
  span->events = span->first = span->last = 0;
  mapped log, ring;
  if (map_file(log_path, &log, why, why_len)) return -1;
  if (map_file(ring_path, &ring, why, why_len)) {
    unmap_file(&log);
    return -1;
  }
  encode_ctx c = {w, OTF2_AttributeList_New(), OTF2_SUCCESS};
  int rc = 0;
  if (!c.attrs) {
    snprintf(why, why_len, "%s: out of memory", log_path ? log_path : ring_path);
    rc = -1;
  } else {
    czt_log_bytes lb = {log_path, log.base, log.size}, rb = {ring_path, ring.base, ring.size};
    rc = czt_log_walk(&lb, &rb, encode_one, &c, span, why, why_len);
    if (rc && c.error != OTF2_SUCCESS) {
      size_t n = strlen(why);
      snprintf(why + n, why_len - n, " (OTF2: %s)", OTF2_Error_GetName(c.error));
    }
  }
  if (c.attrs) OTF2_AttributeList_Delete(c.attrs);
  unmap_file(&log);
  unmap_file(&ring);
  return rc;
}
