/* wrappers_recv.c: receives are recorded at completion with the actual
 * source, tag and byte count from the status (a local one when the caller
 * passes MPI_STATUS_IGNORE), so wildcards resolve; the received bytes are
 * hashed then. Nonblocking receives record MpiIrecvRequest at the call.
 * MPI_Probe / MPI_Iprobe are not wrapped: they move no data. */
#include "tracer.h"

static void record_recv(const void *buf, MPI_Datatype type, MPI_Comm comm,
                        const MPI_Status *st, czt_site site) {
  if (st->MPI_SOURCE == MPI_PROC_NULL) return;
  czt_msg m;
  czt_msg_recv(&m, buf, type, comm, st, site);
  czt_write_recv(&m);
}

CZT_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source,
                        int tag, MPI_Comm comm, MPI_Status *status) {
  czt_site site = CZT_SITE();
  if (!czt_recording())
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  czt_drain(); /* about to wait: encode the staged events now */
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  if (rc == MPI_SUCCESS) record_recv(buf, type, comm, st, site);
  return rc;
}

CZT_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source,
                         int tag, MPI_Comm comm, MPI_Request *request) {
  czt_site site = CZT_SITE();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (rc != MPI_SUCCESS || !czt_recording() || source == MPI_PROC_NULL)
    return rc;
  czt_msg m = {.comm = comm, .peer = source, .tag = tag, .count = count,
               .type = type, .buf = buf, .site = site};
  uint64_t id = czt_new_request_id();
  czt_write_irecv_request(id);
  czt_req_add(*request, 0, 0, 1, id, &m);
  return rc;
}

CZT_EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, int dest, int sendtag,
                            void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int source, int recvtag,
                            MPI_Comm comm, MPI_Status *status) {
  czt_site site = CZT_SITE();
  if (!czt_recording())
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
  if (dest != MPI_PROC_NULL) {
    czt_msg m;
    czt_msg_send(&m, sendbuf, sendcount, sendtype, dest, sendtag, comm, site);
    czt_write_send(&m);
  }
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, st);
  if (rc == MPI_SUCCESS) record_recv(recvbuf, recvtype, comm, st, site);
  czt_drain();
  return rc;
}

CZT_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type,
                                    int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm,
                                    MPI_Status *status) {
  czt_site site = CZT_SITE();
  if (!czt_recording())
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source,
                                 recvtag, comm, status);
  if (dest != MPI_PROC_NULL) {
    czt_msg m;
    czt_msg_send(&m, buf, count, type, dest, sendtag, comm, site);
    czt_write_send(&m);
  }
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source,
                                 recvtag, comm, st);
  if (rc == MPI_SUCCESS) record_recv(buf, type, comm, st, site);
  czt_drain();
  return rc;
}
