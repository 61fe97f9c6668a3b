/* wrappers_fortran_p2p.c: the Fortran point-to-point entry points on Open
 * MPI, and those without a buffer on MPICH's mpi_f08 (see fortran.h): sends, receives, Sendrecv, matched probes and
 * persistent requests, each converted and handed to its C wrapper with the
 * program's return address as the site. */
#include "fortran.h"

#ifdef CZT_F_CONVERTS
/* With a choice buffer: Open MPI only (MPICH's are forwarded). */
#ifdef CZT_F_CONVERT
#define SEND_PARAMS                                                          \
  (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag, \
   MPI_Fint *comm, MPI_Fint *ierr)

#define CZT_F_SEND(lo, UP, CNAME)                                           \
  CZT_F_HOT_NAMES(lo, UP, SEND_PARAMS) {                                        \
    MPI_Datatype t = PMPI_Type_f2c(*type);                                  \
    MPI_Comm c = PMPI_Comm_f2c(*comm);                                      \
    CZT_F_CALLER_SITE();                                                    \
    int rc = CNAME(czt_f_buf(buf), *count, t, *dest, *tag, c);              \
    czt_drop_site();                                                        \
    czt_f_ierr(ierr, rc);                                                   \
  }

CZT_F_SEND(mpi_send, MPI_SEND, MPI_Send)
CZT_F_SEND(mpi_bsend, MPI_BSEND, MPI_Bsend)
CZT_F_SEND(mpi_ssend, MPI_SSEND, MPI_Ssend)
CZT_F_SEND(mpi_rsend, MPI_RSEND, MPI_Rsend)

/* Nonblocking sends, persistent sends and receives: one request out. */
#define REQUEST_PARAMS                                                       \
  (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *peer, MPI_Fint *tag, \
   MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)

#define CZT_F_REQUEST(NAMES, lo, UP, CNAME)                                 \
  NAMES(lo, UP, REQUEST_PARAMS) {                                     \
    MPI_Datatype t = PMPI_Type_f2c(*type);                                  \
    MPI_Comm c = PMPI_Comm_f2c(*comm);                                      \
    MPI_Request r;                                                          \
    CZT_F_CALLER_SITE();                                                    \
    int rc = CNAME(czt_f_buf(buf), *count, t, *peer, *tag, c, &r);          \
    czt_drop_site();                                                        \
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(r);                  \
    czt_f_ierr(ierr, rc);                                                   \
  }

CZT_F_REQUEST(CZT_F_HOT_NAMES, mpi_isend, MPI_ISEND, MPI_Isend)
CZT_F_REQUEST(CZT_F_HOT_NAMES, mpi_ibsend, MPI_IBSEND, MPI_Ibsend)
CZT_F_REQUEST(CZT_F_HOT_NAMES, mpi_issend, MPI_ISSEND, MPI_Issend)
CZT_F_REQUEST(CZT_F_HOT_NAMES, mpi_irsend, MPI_IRSEND, MPI_Irsend)
CZT_F_REQUEST(CZT_F_HOT_NAMES, mpi_irecv, MPI_IRECV, MPI_Irecv)
CZT_F_REQUEST(CZT_F_NAMES, mpi_send_init, MPI_SEND_INIT, MPI_Send_init)
CZT_F_REQUEST(CZT_F_NAMES, mpi_bsend_init, MPI_BSEND_INIT, MPI_Bsend_init)
CZT_F_REQUEST(CZT_F_NAMES, mpi_ssend_init, MPI_SSEND_INIT, MPI_Ssend_init)
CZT_F_REQUEST(CZT_F_NAMES, mpi_rsend_init, MPI_RSEND_INIT, MPI_Rsend_init)
CZT_F_REQUEST(CZT_F_NAMES, mpi_recv_init, MPI_RECV_INIT, MPI_Recv_init)

CZT_F_HOT_NAMES(mpi_recv, MPI_RECV,
                    (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
                     MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)) {
  MPI_Datatype t = PMPI_Type_f2c(*type);
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  MPI_Status st;
  CZT_F_CALLER_SITE();
  int rc = MPI_Recv(czt_f_buf(buf), *count, t, *source, *tag, c, czt_f_status_in(status, &st));
  czt_drop_site();
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

CZT_F_HOT_NAMES(mpi_sendrecv, MPI_SENDRECV,
                    (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, MPI_Fint *dest,
                     MPI_Fint *sendtag, void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype,
                     MPI_Fint *source, MPI_Fint *recvtag, MPI_Fint *comm, MPI_Fint *status,
                     MPI_Fint *ierr)) {
  MPI_Datatype st_ = PMPI_Type_f2c(*sendtype), rt = PMPI_Type_f2c(*recvtype);
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  MPI_Status st;
  CZT_F_CALLER_SITE();
  int rc = MPI_Sendrecv(czt_f_buf(sendbuf), *sendcount, st_, *dest, *sendtag, czt_f_buf(recvbuf),
                        *recvcount, rt, *source, *recvtag, c, czt_f_status_in(status, &st));
  czt_drop_site();
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

CZT_F_HOT_NAMES(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE,
                    (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,
                     MPI_Fint *sendtag, MPI_Fint *source, MPI_Fint *recvtag, MPI_Fint *comm,
                     MPI_Fint *status, MPI_Fint *ierr)) {
  MPI_Datatype t = PMPI_Type_f2c(*type);
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  MPI_Status st;
  CZT_F_CALLER_SITE();
  int rc = MPI_Sendrecv_replace(czt_f_buf(buf), *count, t, *dest, *sendtag, *source, *recvtag, c,
                                czt_f_status_in(status, &st));
  czt_drop_site();
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

#endif /* CZT_F_CONVERT */

/* Matched probes: the probes record no event but remember the message's
 * communicator for the receive (wrappers_mprobe.c). */
CZT_F_NAMES(mpi_mprobe, MPI_MPROBE,
            (MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
             MPI_Fint *status, MPI_Fint *ierr)) {
  MPI_Message m;
  MPI_Status st;
  int rc = MPI_Mprobe(*source, *tag, PMPI_Comm_f2c(*comm), &m, czt_f_status_in(status, &st));
  if (rc == MPI_SUCCESS) *message = PMPI_Message_c2f(m);
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

CZT_F_NAMES(mpi_improbe, MPI_IMPROBE,
            (MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag,
             MPI_Fint *message, MPI_Fint *status, MPI_Fint *ierr)) {
  MPI_Message m;
  MPI_Status st;
  int f = 0;
  int rc = MPI_Improbe(*source, *tag, PMPI_Comm_f2c(*comm), &f, &m, czt_f_status_in(status, &st));
  if (rc == MPI_SUCCESS) {
    *flag = czt_f_logical(f);
    if (f) *message = PMPI_Message_c2f(m);
  }
  if (f) czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

#ifdef CZT_F_CONVERT
CZT_F_NAMES(mpi_mrecv, MPI_MRECV,
            (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *message, MPI_Fint *status,
             MPI_Fint *ierr)) {
  MPI_Message m = PMPI_Message_f2c(*message);
  MPI_Status st;
  MPI_Datatype t = PMPI_Type_f2c(*type);
  CZT_F_CALLER_SITE();
  int rc = MPI_Mrecv(czt_f_buf(buf), *count, t, &m, czt_f_status_in(status, &st));
  czt_drop_site();
  if (rc == MPI_SUCCESS) *message = PMPI_Message_c2f(m);
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

CZT_F_NAMES(mpi_imrecv, MPI_IMRECV,
            (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *message, MPI_Fint *request,
             MPI_Fint *ierr)) {
  MPI_Message m = PMPI_Message_f2c(*message);
  MPI_Request r;
  MPI_Datatype t = PMPI_Type_f2c(*type);
  CZT_F_CALLER_SITE();
  int rc = MPI_Imrecv(czt_f_buf(buf), *count, t, &m, &r);
  czt_drop_site();
  if (rc == MPI_SUCCESS) {
    *message = PMPI_Message_c2f(m);
    *request = PMPI_Request_c2f(r);
  }
  czt_f_ierr(ierr, rc);
}

#endif /* CZT_F_CONVERT */

/* Persistent requests: started, freed, cancelled (requests.c). */
CZT_F_NAMES(mpi_start, MPI_START, (MPI_Fint *request, MPI_Fint *ierr)) {
  MPI_Request r = PMPI_Request_f2c(*request);
  int rc = MPI_Start(&r);
  if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
  czt_f_ierr(ierr, rc);
}

CZT_F_NAMES(mpi_startall, MPI_STARTALL, (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierr)) {
  czt_f_arrays a;
  int rc = czt_f_arrays_in(&a, *count, requests, NULL);
  if (rc == MPI_SUCCESS) {
    rc = MPI_Startall(*count, a.req);
    if (rc == MPI_SUCCESS) czt_f_arrays_out(&a, *count, requests, NULL, 0);
    czt_f_arrays_free(&a);
  }
  czt_f_ierr(ierr, rc);
}

CZT_F_NAMES(mpi_request_free, MPI_REQUEST_FREE, (MPI_Fint *request, MPI_Fint *ierr)) {
  MPI_Request r = PMPI_Request_f2c(*request);
  int rc = MPI_Request_free(&r);
  if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
  czt_f_ierr(ierr, rc);
}

CZT_F_NAMES(mpi_cancel, MPI_CANCEL, (MPI_Fint *request, MPI_Fint *ierr)) {
  MPI_Request r = PMPI_Request_f2c(*request);
  czt_f_ierr(ierr, MPI_Cancel(&r));
}
#endif
