/* wrappers_persistent.c: persistent requests are registered at *_init (while
 * the archive is open, even when paused) and recorded at each MPI_Start /
 * MPI_Startall (MpiIsend with a fresh request id and the hash of the buffer
 * at that moment, or MpiIrecvRequest). MPI_Request_free forgets a request;
 * MPI_Cancel marks it so its completion is checked for cancellation. */
#include "tracer.h"

#define CZT_SEND_INIT(NAME)                                                  \
  CZT_EXPORT CZT_HOT int MPI_##NAME(const void *buf, int count, MPI_Datatype type,   \
                            int dest, int tag, MPI_Comm comm,                \
                            MPI_Request *request) {                          \
    czt_site site = CZT_SITE();                                              \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, request);        \
    if (rc == MPI_SUCCESS && atomic_load(&czt.on) && dest != MPI_PROC_NULL) {\
      czt_msg m; /* hashed at each MPI_Start */                              \
      czt_msg_send_info(&m, buf, count, type, dest, tag, comm, site);        \
      czt_req_add(*request, 1, 1, 0, 0, &m);                                 \
    }                                                                        \
    return rc;                                                               \
  }

CZT_SEND_INIT(Send_init)
CZT_SEND_INIT(Bsend_init)
CZT_SEND_INIT(Ssend_init)
CZT_SEND_INIT(Rsend_init)

CZT_EXPORT CZT_HOT int MPI_Recv_init(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request) {
  czt_site site = CZT_SITE();
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (rc == MPI_SUCCESS && atomic_load(&czt.on) && source != MPI_PROC_NULL) {
    CZT_MARK_ANY_SOURCE(site, source);
    czt_msg m = {.comm = comm, .peer = source, .tag = tag, .count = count,
                 .type = type, .buf = buf, .site = site};
    czt_req_add(*request, 0, 1, 0, 0, &m);
  }
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Start(MPI_Request *request) {
  MPI_Request handle = *request;
  int rc = PMPI_Start(request);
  if (rc == MPI_SUCCESS && czt_recording() && czt_req_pending())
    czt_req_start(handle);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Startall(int count, MPI_Request requests[]) {
  int rc = PMPI_Startall(count, requests);
  if (rc == MPI_SUCCESS && czt_recording() && czt_req_pending())
    for (int i = 0; i < count; i++) czt_req_start(requests[i]);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Request_free(MPI_Request *request) {
  MPI_Request handle = *request;
  int rc = PMPI_Request_free(request);
  if (czt_req_pending()) czt_req_forget(handle);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Cancel(MPI_Request *request) {
  if (czt_req_pending()) czt_req_cancel(*request);
  return PMPI_Cancel(request);
}
