/* wrappers_fortran_wait.c: the Fortran Wait and Test families on Open MPI
 * and MPICH's mpi_f08 (see fortran.h), through the C wrappers, which record the completions of
 * traced requests. Indices are 1-based in Fortran. */
#include "fortran.h"

#ifdef CZT_F_CONVERTS
CZT_F_HOT_NAMES(mpi_wait, MPI_WAIT, (MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr)) {
  MPI_Request r = PMPI_Request_f2c(*request);
  MPI_Status st;
  int rc = MPI_Wait(&r, czt_f_status_in(status, &st));
  if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

CZT_F_HOT_NAMES(mpi_test, MPI_TEST,
                (MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)) {
  MPI_Request r = PMPI_Request_f2c(*request);
  MPI_Status st;
  int f = 0;
  int rc = MPI_Test(&r, &f, czt_f_status_in(status, &st));
  if (rc == MPI_SUCCESS) {
    *request = PMPI_Request_c2f(r);
    *flag = czt_f_logical(f);
  }
  if (f) czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

/* Statuses of a completed array call are meaningful on success and, per
 * request, with MPI_ERR_IN_STATUS. */
static int statuses_valid(int rc) { return rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS; }

CZT_F_HOT_NAMES(mpi_waitall, MPI_WAITALL,
                (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr)) {
  czt_f_arrays a;
  int rc = czt_f_arrays_in(&a, *count, requests, statuses);
  if (rc == MPI_SUCCESS) {
    rc = MPI_Waitall(*count, a.req, a.st);
    if (statuses_valid(rc)) czt_f_arrays_out(&a, *count, requests, statuses, *count);
    czt_f_arrays_free(&a);
  }
  czt_f_ierr(ierr, rc);
}

CZT_F_HOT_NAMES(mpi_testall, MPI_TESTALL,
                (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                 MPI_Fint *ierr)) {
  czt_f_arrays a;
  int f = 0;
  int rc = czt_f_arrays_in(&a, *count, requests, statuses);
  if (rc == MPI_SUCCESS) {
    rc = MPI_Testall(*count, a.req, &f, a.st);
    if (statuses_valid(rc)) {
      *flag = czt_f_logical(f);
      czt_f_arrays_out(&a, *count, requests, statuses, f ? *count : 0);
    }
    czt_f_arrays_free(&a);
  }
  czt_f_ierr(ierr, rc);
}

/* Waitany/Testany: MPI_UNDEFINED stays as it is, an index gets + 1. */
static MPI_Fint fortran_index(int i) { return i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1; }

CZT_F_HOT_NAMES(mpi_waitany, MPI_WAITANY,
                (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                 MPI_Fint *ierr)) {
  czt_f_arrays a;
  MPI_Status st;
  int i = MPI_UNDEFINED;
  int rc = czt_f_arrays_in(&a, *count, requests, NULL);
  if (rc == MPI_SUCCESS) {
    rc = MPI_Waitany(*count, a.req, &i, czt_f_status_in(status, &st));
    if (rc == MPI_SUCCESS) {
      czt_f_arrays_out(&a, *count, requests, NULL, 0);
      *index = fortran_index(i);
    }
    czt_f_arrays_free(&a);
  }
  czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

CZT_F_HOT_NAMES(mpi_testany, MPI_TESTANY,
                (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                 MPI_Fint *status, MPI_Fint *ierr)) {
  czt_f_arrays a;
  MPI_Status st;
  int i = MPI_UNDEFINED, f = 0;
  int rc = czt_f_arrays_in(&a, *count, requests, NULL);
  if (rc == MPI_SUCCESS) {
    rc = MPI_Testany(*count, a.req, &i, &f, czt_f_status_in(status, &st));
    if (rc == MPI_SUCCESS) {
      czt_f_arrays_out(&a, *count, requests, NULL, 0);
      *index = fortran_index(i);
      *flag = czt_f_logical(f);
    }
    czt_f_arrays_free(&a);
  }
  if (f) czt_f_status_out(rc, status, &st);
  czt_f_ierr(ierr, rc);
}

#define SOME_PARAMS                                                              \
  (MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices, \
   MPI_Fint *statuses, MPI_Fint *ierr)

#define CZT_F_SOME(lo, UP, CNAME)                                                 \
  CZT_F_HOT_NAMES(lo, UP, SOME_PARAMS) {                                          \
    czt_f_arrays a;                                                               \
    int n = 0;                                                                    \
    int rc = czt_f_arrays_in(&a, *incount, requests, statuses);                   \
    if (rc == MPI_SUCCESS) {                                                      \
      rc = CNAME(*incount, a.req, &n, indices, a.st);                             \
      if (statuses_valid(rc)) {                                                   \
        int done = n == MPI_UNDEFINED ? 0 : n;                                    \
        czt_f_arrays_out(&a, *incount, requests, statuses, done);                 \
        for (int k = 0; k < done; k++) indices[k] += 1;                           \
        *outcount = n;                                                            \
      }                                                                           \
      czt_f_arrays_free(&a);                                                      \
    }                                                                             \
    czt_f_ierr(ierr, rc);                                                         \
  }

CZT_F_SOME(mpi_waitsome, MPI_WAITSOME, MPI_Waitsome)
CZT_F_SOME(mpi_testsome, MPI_TESTSOME, MPI_Testsome)
#endif
