/* event_encode.c: event log records -> OTF2 records (see event_log.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event_log.h"

static void site_attrs(OTF2_AttributeList *a, const czt_record *r) {
  OTF2_AttributeList_AddUint64(
      a, r->flags & CZT_REC_SITE_RA ? CZT_ATTR_RETURN_ADDRESS : CZT_ATTR_SITE,
      r->site);
}

static void msg_attrs(OTF2_AttributeList *a, const czt_record *r) {
  int hashed = (r->flags & CZT_REC_HASHED) != 0;
  if (hashed) OTF2_AttributeList_AddUint32(a, CZT_ATTR_CRC32, r->crc);
  OTF2_AttributeList_AddUint64(a, CZT_ATTR_ADDRESS, r->address);
  if (hashed) OTF2_AttributeList_AddUint64(a, CZT_ATTR_PREFIX, r->prefix);
  site_attrs(a, r);
  OTF2_AttributeList_AddUint32(a, CZT_ATTR_COUNT, r->count);
  OTF2_AttributeList_AddUint32(a, CZT_ATTR_DATATYPE, r->dtype);
  /* On MPI_COMM_WORLD and MPI_COMM_SELF the reader knows it already. */
  if (r->ref > 1) OTF2_AttributeList_AddUint32(a, CZT_ATTR_PEER_WORLD, r->peer_world);
  if (r->flags & CZT_REC_KEPT) OTF2_AttributeList_AddUint8(a, CZT_ATTR_KEPT, 1);
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
    OTF2_AttributeList_AddUint32(a, CZT_ATTR_NEW_COMM, r->peer);
    OTF2_AttributeList_AddUint32(a, CZT_ATTR_COMM, r->ref);
    return OTF2_EvtWriter_Leave(w, a, r->t, (OTF2_RegionRef)r->tag);
  }
  return OTF2_ERROR_INVALID_DATA;
}

int czt_log_convert(const char *path, OTF2_EvtWriter *w, czt_rank_span *span,
                    char *why, size_t why_len) {
  span->events = span->first = span->last = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(why, why_len, "%s: cannot read: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  size_t size = (size_t)st.st_size;
  if (size < sizeof(czt_log_header)) {
    close(fd);
    snprintf(why, why_len, "%s: shorter than its header (%zu bytes)", path, size);
    return -1;
  }
  const unsigned char *base = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (base == MAP_FAILED) {
    snprintf(why, why_len, "%s: cannot map: %s", path, strerror(errno));
    return -1;
  }
  madvise((void *)base, size, MADV_SEQUENTIAL);
  const czt_log_header *h = (const czt_log_header *)base;
  int rc = 0;
  if (h->magic != CZT_LOG_MAGIC || h->version != CZT_LOG_VERSION ||
      h->record_bytes != sizeof(czt_record)) {
    snprintf(why, why_len,
             "%s: not a Collectivize event log of this version (offset 0: "
             "magic/version/record size differ)",
             path);
    rc = -1;
  }
  OTF2_AttributeList *attrs = rc == 0 ? OTF2_AttributeList_New() : NULL;
  if (rc == 0 && !attrs) {
    snprintf(why, why_len, "%s: out of memory", path);
    rc = -1;
  }
  const czt_record *r = (const czt_record *)(base + sizeof(czt_log_header));
  size_t n = (size - sizeof(czt_log_header)) / sizeof(czt_record);
  for (size_t i = 0; rc == 0 && i < n && r[i].kind != CZT_REC_END; i++) {
    if (r[i].kind >= CZT_REC_KINDS) {
      snprintf(why, why_len, "%s: offset %zu: unknown record kind %u", path,
               sizeof(czt_log_header) + i * sizeof(czt_record), r[i].kind);
      rc = -1;
      break;
    }
    OTF2_ErrorCode e = czt_record_encode(w, attrs, &r[i]);
    if (e != OTF2_SUCCESS) {
      snprintf(why, why_len, "%s: OTF2 cannot write event %zu: %s", path, i,
               OTF2_Error_GetName(e));
      rc = -1;
      break;
    }
    if (span->events++ == 0) span->first = r[i].t;
    span->last = r[i].t;
  }
  if (attrs) OTF2_AttributeList_Delete(attrs);
  munmap((void *)base, size);
  return rc;
}
