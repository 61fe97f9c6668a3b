/* wrappers_send.c: blocking sends (MpiSend) and nonblocking sends
 * (MpiIsend, and MpiIsendComplete when a Wait/Test completes it, see
 * requests.c). The payload is hashed after the message is posted where
 * that keeps work off the message's way: MPI forbids changing a send
 * buffer before completion, so the hash is the same, and for large
 * messages it runs while the transfer does. A large blocking send is
 * therefore posted as its nonblocking form and waited for, which MPI
 * defines to be equivalent. A small blocking send of an unthreaded
 * program is recorded after it returns (stamped before): on a 1 us round
 * trip the receiver then runs while the sender records; a middle-sized
 * one (tracer.h, czt_send_call_fill) before it is posted. Either's record
 * is filled from the call's arguments, kept in a czt_send_call, with no
 * czt_msg between. */
#include "tracer.h"

/* The other cases (threaded, large, derived or with block CRCs above
 * CZT_AFTER_POST_BYTES; smaller ones go through the in-place writer's own
 * fallback) out of line: the usual send's path then keeps a small frame. */
#define CZT_BLOCKING_SEND(NAME, INAME)                                      \
  static __attribute__((noinline)) int send_other_##NAME(                   \
      const void *buf, int count, MPI_Datatype type, int dest, int tag,     \
      MPI_Comm comm, const czt_site *site) {                                \
    czt_msg m;                                                               \
    czt_msg_send_info(&m, buf, count, type, dest, tag, comm, *site);         \
    if (m.bytes < CZT_OVERLAP_BYTES) {                                       \
      czt_msg_hash(&m);                                                      \
      czt_write_send(&m);                                                    \
      int rc = PMPI_##NAME(buf, count, type, dest, tag, comm);               \
      czt_at_wait_point(); /* the message is on its way */                   \
      return rc;                                                             \
    }                                                                        \
    MPI_Request req;                                                         \
    int rc = PMPI_##INAME(buf, count, type, dest, tag, comm, &req);         \
    if (rc != MPI_SUCCESS) return rc;                                        \
    czt_msg_hash(&m);                                                        \
    czt_write_send(&m);                                                      \
    czt_at_wait_point();                                                     \
    return PMPI_Wait(&req, MPI_STATUS_IGNORE);                               \
  }                                                                          \
  CZT_EXPORT CZT_HOT int MPI_##NAME(const void *buf, int count, MPI_Datatype type,   \
                            int dest, int tag, MPI_Comm comm) {              \
    czt_send_call c;                                                         \
    CZT_SITE_INTO(&c.site);                                                  \
    if (!czt_recording() || dest == MPI_PROC_NULL)                           \
      return PMPI_##NAME(buf, count, type, dest, tag, comm);                 \
    czt_send_way way = czt_send_call_fill(&c, buf, count, type, dest, tag, comm); \
    if (way == CZT_SEND_BY_MSG)                                              \
      return send_other_##NAME(buf, count, type, dest, tag, comm, &c.site);  \
    if (way == CZT_SEND_BEFORE_POST) {                                       \
      czt_write_send_call(&c, czt_stamp());                                  \
      int rc = PMPI_##NAME(buf, count, type, dest, tag, comm);               \
      czt_log_at_wait_point(); /* the send stored the late receive */        \
      return rc;                                                             \
    }                                                                        \
    /* This send's record and a late receive's, stored after the call. */   \
    czt_log_prefetch(2);                                                     \
    uint64_t t = czt_stamp();                                                \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm);                 \
    if (rc != MPI_SUCCESS) return rc;                                        \
    /* The caller has not got its buffer back: it still holds the data. */   \
    czt_write_send_call(&c, t);                                              \
    czt_log_at_wait_point(); /* the send stored the late receive */          \
    return rc;                                                               \
  }

CZT_BLOCKING_SEND(Send, Isend)
CZT_BLOCKING_SEND(Bsend, Ibsend)
CZT_BLOCKING_SEND(Ssend, Issend)
CZT_BLOCKING_SEND(Rsend, Irsend)

#define CZT_NONBLOCKING_SEND(NAME)                                           \
  CZT_EXPORT CZT_HOT int MPI_##NAME(const void *buf, int count, MPI_Datatype type,   \
                            int dest, int tag, MPI_Comm comm,                \
                            MPI_Request *request) {                          \
    czt_site site = CZT_SITE();                                              \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, request);        \
    if (rc != MPI_SUCCESS || !czt_recording() || dest == MPI_PROC_NULL)      \
      return rc;                                                             \
    czt_msg m;                                                               \
    czt_msg_send(&m, buf, count, type, dest, tag, comm, site);               \
    uint64_t id = czt_new_request_id();                                      \
    czt_write_isend(&m, id);                                                 \
    czt_req_add(*request, 1, 0, 1, id, &m);                                  \
    czt_at_wait_point();                                                     \
    return rc;                                                               \
  }

CZT_NONBLOCKING_SEND(Isend)
CZT_NONBLOCKING_SEND(Ibsend)
CZT_NONBLOCKING_SEND(Issend)
CZT_NONBLOCKING_SEND(Irsend)
