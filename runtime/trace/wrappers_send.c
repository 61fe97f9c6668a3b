/* wrappers_send.c: blocking sends (MpiSend, written before the call) and
 * nonblocking sends (MpiIsend before the call, MpiIsendComplete when a
 * Wait/Test completes it, see requests.c). The payload is hashed at the
 * call: MPI forbids changing a send buffer before completion. */
#include "tracer.h"

#define CZT_BLOCKING_SEND(NAME)                                              \
  CZT_EXPORT int MPI_##NAME(const void *buf, int count, MPI_Datatype type,   \
                            int dest, int tag, MPI_Comm comm) {              \
    czt_site site = CZT_SITE();                                              \
    if (czt_recording() && dest != MPI_PROC_NULL) {                          \
      czt_msg m;                                                             \
      czt_msg_send(&m, buf, count, type, dest, tag, comm, site);             \
      czt_write_send(&m);                                                    \
    }                                                                        \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm);                 \
    czt_drain(); /* the message is on its way: encode the staged events */   \
    return rc;                                                               \
  }

CZT_BLOCKING_SEND(Send)
CZT_BLOCKING_SEND(Bsend)
CZT_BLOCKING_SEND(Ssend)
CZT_BLOCKING_SEND(Rsend)

#define CZT_NONBLOCKING_SEND(NAME)                                           \
  CZT_EXPORT int MPI_##NAME(const void *buf, int count, MPI_Datatype type,   \
                            int dest, int tag, MPI_Comm comm,                \
                            MPI_Request *request) {                          \
    czt_site site = CZT_SITE();                                              \
    if (!czt_recording() || dest == MPI_PROC_NULL)                           \
      return PMPI_##NAME(buf, count, type, dest, tag, comm, request);        \
    czt_msg m;                                                               \
    czt_msg_send(&m, buf, count, type, dest, tag, comm, site);               \
    uint64_t id = czt_new_request_id();                                      \
    czt_write_isend(&m, id);                                                 \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, request);        \
    if (rc == MPI_SUCCESS) czt_req_add(*request, 1, 0, 1, id, &m);           \
    czt_drain();                                                             \
    return rc;                                                               \
  }

CZT_NONBLOCKING_SEND(Isend)
CZT_NONBLOCKING_SEND(Ibsend)
CZT_NONBLOCKING_SEND(Issend)
CZT_NONBLOCKING_SEND(Irsend)
