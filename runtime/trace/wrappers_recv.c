/* wrappers_recv.c: receives are recorded at completion with the actual
 * source, tag and byte count from the status (a local one when the caller
 * passes MPI_STATUS_IGNORE), so wildcards resolve (payloads are hashed
 * at the sender, see payload_hash.c). Nonblocking receives record MpiIrecvRequest at the call.
 * MPI_Probe / MPI_Iprobe are not wrapped: they move no data. */
#include "tracer.h"

CZT_EXPORT CZT_HOT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source,
                        int tag, MPI_Comm comm, MPI_Status *status) {
  czt_site site = CZT_SITE();
  if (!czt_recording())
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
  CZT_MARK_ANY_SOURCE(site, source);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  czt_at_wait_point(); /* about to wait */
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  if (rc == MPI_SUCCESS) czt_record_recv(buf, type, comm, st, &site);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source,
                         int tag, MPI_Comm comm, MPI_Request *request) {
  czt_site site = CZT_SITE();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (rc != MPI_SUCCESS || !czt_recording() || source == MPI_PROC_NULL)
    return rc;
  CZT_MARK_ANY_SOURCE(site, source);
  czt_msg m = {.comm = comm, .peer = source, .tag = tag, .count = count,
               .type = type, .buf = buf, .site = site};
  uint64_t id = czt_new_request_id();
  czt_write_irecv_request(id);
  czt_req_add(*request, 0, 0, 1, id, &m);
  return rc;
}

/* A large send part is posted with the receive and hashed while both run
 * (MPI defines Sendrecv as a send and a receive executed concurrently). */
static int sendrecv_overlapped(czt_msg *m, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Status *status) {
  MPI_Request reqs[2];
  MPI_Status sts[2];
  int rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, m->comm,
                      &reqs[0]);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Isend(m->buf, sendcount, sendtype, m->peer, m->tag, m->comm,
                  &reqs[1]);
  if (rc != MPI_SUCCESS) {
    PMPI_Cancel(&reqs[0]);
    PMPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    return rc;
  }
  czt_msg_hash(m);
  czt_write_send(m);
  czt_at_wait_point();
  rc = PMPI_Waitall(2, reqs, sts);
  if (rc == MPI_ERR_IN_STATUS)
    rc = sts[0].MPI_ERROR != MPI_SUCCESS ? sts[0].MPI_ERROR : sts[1].MPI_ERROR;
  if (status != MPI_STATUS_IGNORE) *status = sts[0];
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) /* as above */
    czt_record_recv(recvbuf, recvtype, m->comm, &sts[0], &m->site);
  return rc;
}

/* A small send part of an unthreaded program: the library's own
 * Sendrecv, the send stamped before it and recorded after it from the
 * call's arguments, the receive recorded late (czt_record_recv). The
 * same events in the same order as Irecv + Send + Wait, the form used
 * before, which passed twelve arguments on through three calls and
 * recorded the send between the Send and the Wait (bench/README.md,
 * "Tracer overhead", tenth pass). A failed exchange records neither
 * message: which of them moved is unknown. */
CZT_HOT static int sendrecv_recorded_after(czt_send_call *c, void *recvbuf, int recvcount,
                                           MPI_Datatype recvtype, int source, int recvtag,
                                           MPI_Status *status) {
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  czt_log_prefetch(2); /* the send's record and a late receive's */
  uint64_t t = czt_stamp();
  int rc = PMPI_Sendrecv(c->buf, c->count, c->type, c->peer, c->tag, recvbuf, recvcount,
                         recvtype, source, recvtag, c->comm, st);
  if (rc != MPI_SUCCESS) return rc;
  czt_write_send_call(c, t);
  czt_log_at_wait_point(); /* the send stored the late receive */
  /* From MPI_PROC_NULL: nothing moved. Tested on the argument: MPICH 4.0
   * completes such a receive with source 0 and tag 0 in its status (not
   * MPI_PROC_NULL and MPI_ANY_TAG), which read as a message from rank 0. */
  if (source != MPI_PROC_NULL) czt_record_recv(recvbuf, recvtype, c->comm, st, &c->site);
  return rc;
}

/* A middle-sized send part of an unthreaded program (tracer.h,
 * czt_send_call_fill): hashed and recorded before the library's own
 * Sendrecv, from the call's arguments, as a blocking send of that size. */
CZT_HOT static __attribute__((noinline)) int sendrecv_recorded_before(
    czt_send_call *c, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
    int recvtag, MPI_Status *status) {
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  czt_write_send_call(c, czt_stamp());
  int rc = PMPI_Sendrecv(c->buf, c->count, c->type, c->peer, c->tag, recvbuf, recvcount,
                         recvtype, source, recvtag, c->comm, st);
  czt_log_at_wait_point(); /* the send stored the late receive */
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) /* as above */
    czt_record_recv(recvbuf, recvtype, c->comm, st, &c->site);
  return rc;
}

/* Every other recorded Sendrecv: a threaded program, a large, derived or
 * sparse send part, a send to MPI_PROC_NULL. Out of line, so that the
 * small send's path keeps a small frame (with these paths' messages and
 * statuses in it, the wrapper's frame was 456 bytes, and it loaded all
 * twelve arguments up front). */
static __attribute__((noinline)) int sendrecv_any(
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
    MPI_Comm comm, MPI_Status *status, const czt_site *site) {
  if (dest != MPI_PROC_NULL) {
    czt_msg m;
    czt_msg_send_info(&m, sendbuf, sendcount, sendtype, dest, sendtag, comm,
                      *site);
    if (m.bytes >= CZT_OVERLAP_BYTES)
      return sendrecv_overlapped(&m, sendcount, sendtype, recvbuf, recvcount,
                                 recvtype, source, recvtag, status);
    czt_msg_hash(&m);
    czt_write_send(&m);
  }
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, st);
  if (rc == MPI_SUCCESS) czt_record_recv(recvbuf, recvtype, comm, st, site);
  czt_at_wait_point();
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Sendrecv(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, int dest, int sendtag,
                            void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int source, int recvtag,
                            MPI_Comm comm, MPI_Status *status) {
  czt_send_call c;
  CZT_SITE_INTO(&c.site);
  if (!czt_recording())
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
  CZT_MARK_ANY_SOURCE(c.site, source); /* its receive's records only */
  czt_send_way way = dest == MPI_PROC_NULL ? CZT_SEND_BY_MSG
                                            : czt_send_call_fill(&c, sendbuf, sendcount, sendtype,
                                                                 dest, sendtag, comm);
  if (way == CZT_SEND_AFTER_POST)
    return sendrecv_recorded_after(&c, recvbuf, recvcount, recvtype, source, recvtag, status);
  if (way == CZT_SEND_BEFORE_POST)
    return sendrecv_recorded_before(&c, recvbuf, recvcount, recvtype, source, recvtag, status);
  return sendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                      recvtype, source, recvtag, comm, status, &c.site);
}

CZT_EXPORT CZT_HOT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type,
                                    int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm,
                                    MPI_Status *status) {
  czt_site site = CZT_SITE();
  if (!czt_recording())
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source,
                                 recvtag, comm, status);
  CZT_MARK_ANY_SOURCE(site, source); /* its receive's records only */
  if (dest != MPI_PROC_NULL) {
    czt_msg m;
    czt_msg_send(&m, buf, count, type, dest, sendtag, comm, site);
    czt_write_send(&m);
  }
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source,
                                 recvtag, comm, st);
  if (rc == MPI_SUCCESS) czt_record_recv(buf, type, comm, st, &site);
  czt_at_wait_point();
  return rc;
}
