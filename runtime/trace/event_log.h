/* event_log.h: the tracer's event log, rank-N.log, and its conversion into
 * OTF2. Free of MPI: the tracer appends to the log while the program runs
 * and converts it at MPI_Finalize; `collectivize trace repair` converts
 * the log a killed rank left behind with the same code.
 *
 * Why a log of fixed records and not OTF2 at once: encoding an OTF2 record
 * with its attribute list costs ~150 ns and the writer's flushes are
 * write() calls, both on the message path of every traced call; storing a
 * record into a file-backed mapping costs a few stores.
 *
 * File layout (host byte order; the log never leaves the machine that
 * wrote it): record 0 is the header (magic, version, record size), then
 * one 80-byte record per event in the order the events happened. The file
 * grows in segments of CZT_LOG_SEGMENT_RECORDS records reserved with
 * posix_fallocate, so unused records read as zero: a record whose kind is
 * 0 ends the log. The kind byte is stored after the other fields, so a
 * process killed while storing a record leaves it out, never half in. */
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
#define CZT_LOG_VERSION 1u
#define CZT_LOG_SEGMENT_RECORDS (64u * 1024u) /* 5 MiB of 80-byte records */

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
#define CZT_REC_HASHED 1u    /* crc and prefix are set */
#define CZT_REC_SITE_RA 2u   /* site is a return address */
#define CZT_REC_KEPT 4u      /* cz_send_to_self */
#define CZT_REC_HAS_ROOT 8u  /* COLL_END: peer is the root */

/* One event. Fields by kind:
 *   messages: peer (rank in comm), ref (comm), tag, bytes, crc, prefix,
 *             address, site, count, dtype, peer_world; req for ISEND/IRECV
 *   requests: req
 *   COLL_END: count = OTF2 collective op, ref, peer = root, peer_world =
 *             root's world rank, bytes = sent, req = received, site
 *   ENTER/LEAVE: tag = region; LEAVE: peer = new comm ref, ref = comm */
typedef struct czt_record {
  uint64_t t, bytes, prefix, site, address, req;
  uint32_t peer, ref, tag, crc, count, dtype, peer_world;
  uint8_t flags, unused[2];
  uint8_t kind; /* stored last */
} czt_record;

typedef struct czt_log_header {
  uint64_t magic;
  uint32_t version, record_bytes;
  uint8_t unused[64];
} czt_log_header;

/* Encode one record with w (attrs: a scratch list). */
OTF2_ErrorCode czt_record_encode(OTF2_EvtWriter *w, OTF2_AttributeList *attrs,
                                 const czt_record *r);

/* Encode every whole record of the log at path with w; fills span (event
 * count, first and last timestamp). 0, or -1 with why filled (file and
 * reason). A log that ends early (killed process) is not an error. */
int czt_log_convert(const char *path, OTF2_EvtWriter *w,
                    czt_rank_span *span, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif /* CZT_EVENT_LOG_H */
