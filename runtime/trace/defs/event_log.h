/* event_log.h: the tracer's event records, their files while the program
 * runs, and their conversion into OTF2. Free of MPI: the tracer records
 * and converts at MPI_Finalize; `collectivize trace repair` converts what
 * a killed rank left behind with the same code.
 *
 * Why records and not OTF2 at once: encoding an OTF2 record with its
 * attribute list costs ~150 ns on the message path of every traced call;
 * storing a fixed record costs a few stores.
 *
 * Two files per rank, host byte order (they never leave the machine that
 * wrote them):
 *   rank-N.ring  a 4 KiB header and two halves of CZT_RING_HALF_RECORDS
 *                records, mapped MAP_SHARED once: events are stored here,
 *                so a record is in the page cache the moment it is stored
 *                and survives SIGKILL, MPI_Abort or a crash of the process.
 *                The header says at which log index each half starts
 *                (CZT_RING_EMPTY: the half holds nothing unwritten).
 *   rank-N.log   a 4 KiB header block, then records in event order,
 *                appended one full half at a time (pwrite at the records'
 *                own offset, so writing a half again is harmless) by the
 *                writer thread or where the rank is about to wait anyway;
 *                the half is then zeroed and marked empty. Halves are
 *                written with O_DIRECT where the file system allows it
 *                (the header block and halves are page-aligned for that):
 *                copying them into fresh page-cache pages cost 1-2.5 ms of
 *                CPU per half here, taken from the program's cores.
 * A record whose kind is 0 ends a half; the kind byte is stored after the
 * other fields, so a record interrupted by a kill is left out, never half
 * in. Reading: record i is in the log when the log has it (a half is
 * zeroed only after its pwrite completed; a kill during the zeroing leaves
 * records in the ring with zeroed fields but their kind), else in the ring
 * half whose range holds it; the first index in neither ends the events. */
#ifndef CZT_EVENT_LOG_H
#define CZT_EVENT_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

#include "global_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZT_LOG_MAGIC 0x31474f4c545a43ull /* "CZTLOG1" */
#define CZT_LOG_VERSION 3u /* 2: the log header is a 4 KiB block; 3: caller (flag CZT_REC_ANY_SOURCE added without a bump: logs before it never set it) */
#define CZT_RING_HALF_RECORDS (32u * 1024u) /* 2.75 MiB of 88-byte records (2026-11) */
#define CZT_RING_HEADER_BYTES 4096u
#define CZT_LOG_HEADER_BYTES 4096u /* the header record, then zeros */
#define CZT_RING_EMPTY UINT64_MAX

/* Record kinds (0: no record, the log ends). */
enum {
  CZT_REC_END = 0,
  CZT_REC_SEND,           /* MpiSend */
  CZT_REC_ISEND,          /* MpiIsend */
  CZT_REC_ISEND_COMPLETE, /* MpiIsendComplete */
  CZT_REC_RECV,           /* MpiRecv */
  CZT_REC_IRECV_REQUEST,  /* MpiIrecvRequest */
  CZT_REC_IRECV,          /* MpiIrecv */
  CZT_REC_CANCELLED,      /* MpiRequestCancelled */
  CZT_REC_COLL_BEGIN,     /* MpiCollectiveBegin */
  CZT_REC_COLL_END,       /* MpiCollectiveEnd */
  CZT_REC_ENTER,          /* Enter of a communicator call's region */
  CZT_REC_LEAVE,          /* Leave, with the new and the argument comm */
  CZT_REC_KINDS
};

/* flags */
#define CZT_REC_HASHED 1u    /* prefix set, and crc (see CZT_CRC_FROM_PREFIX_BYTES) */
#define CZT_REC_SITE_RA 2u   /* site is a return address */
#define CZT_REC_KEPT 4u      /* cz_send_to_self */
#define CZT_REC_HAS_ROOT 8u  /* COLL_END: peer is the root */
#define CZT_REC_HAS_COLOR 16u /* LEAVE: count is MPI_Comm_split's color */
#define CZT_REC_ANY_SOURCE 32u /* receives: posted with MPI_ANY_SOURCE (czt_site.record_flags) */

/* A hashed payload of at most this many bytes is whole in its record's
 * prefix: the tracer leaves its crc 0 and czt_log_walk computes it from the
 * prefix (a tiny CRC's table lookups are cold cache lines on the message
 * path, and with yielding ranks any work there delays the reply). */
#define CZT_CRC_FROM_PREFIX_BYTES 8u

/* One event. Fields by kind:
 *   messages: peer (rank in comm), ref (comm), tag, bytes, crc, prefix,
 *             address, site, count, dtype, peer_world; req for ISEND/IRECV;
 *             passed: what the call passed (czt_passed)
 *   requests: req
 *   COLL_END: count = OTF2 collective op, ref, peer = root, peer_world =
 *             root's world rank, bytes = sent, req = received, site
 *   ENTER/LEAVE: tag = region; LEAVE: peer = new comm ref, ref = comm,
 *             site, count = color (CZT_REC_HAS_COLOR) */
/* What a message's record takes unchanged from its call: values only the
 * call knows (its wrapper's arguments, or cz_trace_site_at before it). The
 * wrapper puts them in the call's czt_site (tracer.h), which every path
 * already carries to the record (blocking, nonblocking and persistent
 * calls, late receives, both records of a Sendrecv), and the record copies
 * them whole; zero unless the call set them. A new field the wrappers pass
 * is a member here (CZT_LOG_VERSION bumped), its line in
 * CZT_MESSAGE_ATTRIBUTES below, and `site.passed.<member> = ...` in the
 * wrappers that know it (runtime/README.md, "A new trace field"). The
 * first member after caller grows the record by 8 bytes (alignment), the
 * ones that fit in that padding do not. */
typedef struct czt_passed {
  /* the return address of the program's function holding the MPI call
   * when cz_trace_site_at said so (a site in the program's own wrapper of
   * the call); 0: none */
  uint64_t caller;
} czt_passed;

typedef struct czt_record {
  uint64_t t, bytes, prefix, site, address, req;
  czt_passed passed; /* messages */
  uint32_t peer, ref, tag, crc, count, dtype, peer_world;
  uint8_t flags, unused[2];
  uint8_t kind; /* stored last */
} czt_record;

/* Which attribute holds a record's site: an instrumenter's id or a return
 * address. */
static inline uint32_t czt_site_attribute(const czt_record *r) {
  return r->flags & CZT_REC_SITE_RA ? CZT_ATTR_RETURN_ADDRESS : CZT_ATTR_SITE;
}

/* The attributes of a message record (MpiSend, MpiIsend, MpiRecv, MpiIrecv)
 * in the order they are written: X(ATTRIBUTE, TYPE, VALUE, WHEN) adds VALUE
 * of record r with OTF2_AttributeList_Add<TYPE> when WHEN holds. A new
 * field of messages: its member in czt_record above, or in czt_passed when
 * the call passes it (and CZT_LOG_VERSION bumped), one line here, and the
 * code that fills it (take_msg in otf2_writer.c, or the wrappers). */
#define CZT_MESSAGE_ATTRIBUTES(X)                                             \
  X(CZT_ATTR_CRC32, Uint32, r->crc, r->flags & CZT_REC_HASHED)                \
  X(CZT_ATTR_ADDRESS, Uint64, r->address, 1)                                  \
  X(CZT_ATTR_PREFIX, Uint64, r->prefix, r->flags & CZT_REC_HASHED)            \
  X(czt_site_attribute(r), Uint64, r->site, 1)                                \
  /* only sites in the program's own wrappers have a caller: traces of     */ \
  /* programs without them do not grow                                     */ \
  X(CZT_ATTR_CALLER, Uint64, r->passed.caller, r->passed.caller != 0)         \
  X(CZT_ATTR_COUNT, Uint32, r->count, 1)                                      \
  X(CZT_ATTR_DATATYPE, Uint32, r->dtype, 1)                                   \
  /* on MPI_COMM_WORLD and MPI_COMM_SELF the reader knows it already       */ \
  X(CZT_ATTR_PEER_WORLD, Uint32, r->peer_world, r->ref > 1)                   \
  X(CZT_ATTR_KEPT, Uint8, 1, r->flags & CZT_REC_KEPT)                         \
  X(CZT_ATTR_ANY_SOURCE, Uint8, 1, r->flags & CZT_REC_ANY_SOURCE)

/* What a record's t counts: CLOCK_MONOTONIC nanoseconds, or x86 TSC
 * ticks mapped to CLOCK_MONOTONIC at conversion through the ring header's
 * calibration pairs (reading the TSC costs a few ns, the VM's kvm-clock
 * through the vDSO ~30 ns, several times per message). */
enum { CZT_CLOCK_MONOTONIC = 0, CZT_CLOCK_TSC = 1 };

typedef struct czt_log_header {
  uint64_t magic;
  uint32_t version, record_bytes;
  uint32_t clock, unused0;
  uint8_t unused[64];
} czt_log_header;

/* A TSC reading and CLOCK_MONOTONIC ns taken together. */
typedef struct czt_clock_pair {
  uint64_t tsc, ns;
} czt_clock_pair;

typedef struct czt_ring_header { /* begins like czt_log_header */
  uint64_t magic;
  uint32_t version, record_bytes;
  uint32_t half_records, clock;
  uint64_t half_base[2];
  /* TSC clock: pairs at the start, 10 ms later, and the latest one (every
   * half switch and at the end); conversion maps ticks linearly through
   * the first and the latest pair at least 10 ms apart. */
  czt_clock_pair start, start_later, latest;
} czt_ring_header;

/* Maps a record's t to CLOCK_MONOTONIC ns (identity for that clock). */
typedef struct czt_clock_map {
  int tsc;
  czt_clock_pair a, b;
} czt_clock_map;
uint64_t czt_clock_ns(const czt_clock_map *m, uint64_t t);

/* Encode one record with w (attrs: a scratch list); t already mapped. */
OTF2_ErrorCode czt_record_encode(OTF2_EvtWriter *w, OTF2_AttributeList *attrs,
                                 const czt_record *r);

/* A rank's log or ring file as bytes: base NULL when there is none. */
typedef struct czt_log_bytes {
  const char *name; /* for messages */
  const unsigned char *base;
  size_t size;
} czt_log_bytes;

/* Called with each record in event order, t mapped to CLOCK_MONOTONIC ns;
 * non-zero stops the walk with an error. */
typedef int (*czt_record_fn)(void *ctx, const czt_record *r);

/* Every whole record of a rank's log and ring, in event order, validated
 * (headers, half bases, record kinds): what czt_log_convert encodes, and
 * what the fuzz targets feed with arbitrary bytes. Fills span; 0, or -1
 * with why filled (file, offset and reason). */
int czt_log_walk(const czt_log_bytes *log, const czt_log_bytes *ring,
                 czt_record_fn on_record, void *ctx, czt_rank_span *span,
                 char *why, size_t why_len);

/* Encode every whole record of a rank's log and ring (either may be
 * missing: NULL or no file) with w, in event order; fills span (event
 * count, first and last timestamp). 0, or -1 with why filled (file,
 * offset and reason). Events that end early (killed process) are not an
 * error. */
int czt_log_convert(const char *log_path, const char *ring_path,
                    OTF2_EvtWriter *w, czt_rank_span *span, char *why,
                    size_t why_len);

#ifdef __cplusplus
}
#endif
#endif /* CZT_EVENT_LOG_H */
