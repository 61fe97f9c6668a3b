/* wrappers_wait.c: the Wait and Test families. Handles are saved before the
 * PMPI call (MPI sets completed ones to MPI_REQUEST_NULL) and statuses are
 * local when the caller ignores them, so every completion of a traced
 * request can be recorded (requests.c). With no traced request pending the
 * calls go straight through. */
#include <string.h>

#include "tracer.h"

/* The i-th request completed? (MPI_ERR_IN_STATUS leaves per-request codes.) */
static int completed(int rc, const MPI_Status *st) {
  return rc == MPI_SUCCESS ||
         (rc == MPI_ERR_IN_STATUS && st->MPI_ERROR == MPI_SUCCESS);
}

CZT_EXPORT CZT_HOT int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  if (!czt_req_pending()) return PMPI_Wait(request, status);
  MPI_Request saved = *request;
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  czt_at_wait_point(); /* about to wait */
  int rc = PMPI_Wait(request, st);
  if (rc == MPI_SUCCESS) czt_req_done(saved, st);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  if (!czt_req_pending()) return PMPI_Test(request, flag, status);
  MPI_Request saved = *request;
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Test(request, flag, st);
  if (rc == MPI_SUCCESS && *flag) czt_req_done(saved, st);
  return rc;
}

/* Saved handles and usable statuses for an array call; NULL: no memory,
 * then the call goes through untraced. */
static MPI_Request *save(int n, const MPI_Request *requests,
                         MPI_Status *statuses, MPI_Status **st) {
  MPI_Request *saved = czt_tls_requests(n > 0 ? n : 1);
  *st = statuses == MPI_STATUSES_IGNORE ? czt_tls_statuses(n > 0 ? n : 1)
                                        : statuses;
  if (!saved || !*st) return NULL;
  memcpy(saved, requests, sizeof *saved * (size_t)(n > 0 ? n : 0));
  return saved;
}

CZT_EXPORT CZT_HOT int MPI_Waitall(int count, MPI_Request requests[],
                           MPI_Status statuses[]) {
  MPI_Status *st;
  MPI_Request *saved;
  if (!czt_req_pending() || !(saved = save(count, requests, statuses, &st)))
    return PMPI_Waitall(count, requests, statuses);
  czt_at_wait_point(); /* about to wait */
  int rc = PMPI_Waitall(count, requests, st);
  for (int i = 0; i < count; i++)
    if (saved[i] != MPI_REQUEST_NULL && completed(rc, &st[i]))
      czt_req_done(saved[i], &st[i]);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Testall(int count, MPI_Request requests[], int *flag,
                           MPI_Status statuses[]) {
  MPI_Status *st;
  MPI_Request *saved;
  if (!czt_req_pending() || !(saved = save(count, requests, statuses, &st)))
    return PMPI_Testall(count, requests, flag, statuses);
  int rc = PMPI_Testall(count, requests, flag, st);
  if (*flag)
    for (int i = 0; i < count; i++)
      if (saved[i] != MPI_REQUEST_NULL && completed(rc, &st[i]))
        czt_req_done(saved[i], &st[i]);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Waitany(int count, MPI_Request requests[], int *index,
                           MPI_Status *status) {
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  MPI_Request *saved;
  if (!czt_req_pending() || !(saved = czt_tls_requests(count > 0 ? count : 1)))
    return PMPI_Waitany(count, requests, index, status);
  memcpy(saved, requests, sizeof *saved * (size_t)(count > 0 ? count : 0));
  czt_at_wait_point(); /* about to wait */
  int rc = PMPI_Waitany(count, requests, index, st);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    czt_req_done(saved[*index], st);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Testany(int count, MPI_Request requests[], int *index,
                           int *flag, MPI_Status *status) {
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  MPI_Request *saved;
  if (!czt_req_pending() || !(saved = czt_tls_requests(count > 0 ? count : 1)))
    return PMPI_Testany(count, requests, index, flag, status);
  memcpy(saved, requests, sizeof *saved * (size_t)(count > 0 ? count : 0));
  int rc = PMPI_Testany(count, requests, index, flag, st);
  if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
    czt_req_done(saved[*index], st);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Waitsome(int incount, MPI_Request requests[],
                            int *outcount, int indices[],
                            MPI_Status statuses[]) {
  MPI_Status *st;
  MPI_Request *saved;
  if (!czt_req_pending() || !(saved = save(incount, requests, statuses, &st)))
    return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  czt_at_wait_point(); /* about to wait */
  int rc = PMPI_Waitsome(incount, requests, outcount, indices, st);
  if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) &&
      *outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++)
      if (completed(rc, &st[i])) czt_req_done(saved[indices[i]], &st[i]);
  return rc;
}

CZT_EXPORT CZT_HOT int MPI_Testsome(int incount, MPI_Request requests[],
                            int *outcount, int indices[],
                            MPI_Status statuses[]) {
  MPI_Status *st;
  MPI_Request *saved;
  if (!czt_req_pending() || !(saved = save(incount, requests, statuses, &st)))
    return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  int rc = PMPI_Testsome(incount, requests, outcount, indices, st);
  if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) &&
      *outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++)
      if (completed(rc, &st[i])) czt_req_done(saved[indices[i]], &st[i]);
  return rc;
}
