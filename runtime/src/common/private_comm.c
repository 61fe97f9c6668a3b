/* private_comm.c: each user communicator gets one private duplicate, cached
 * as an attribute, so the runtime's point-to-point messages live in their own
 * context (they can never match the user's receives) and report errors by
 * return code instead of aborting. The duplicate is freed with the user's
 * communicator (attribute delete callback). */
#include <pthread.h>

#include "cz_internal.h"

static int keyval = MPI_KEYVAL_INVALID;
static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;
static int keyval_rc = MPI_SUCCESS;

static int delete_private(MPI_Comm comm, int key, void *value, void *extra) {
  MPI_Comm dup = (MPI_Comm)value;
  (void)comm; (void)key; (void)extra;
  return PMPI_Comm_free(&dup);
}

static void create_keyval(void) {
  keyval_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_private,
                                      &keyval, NULL);
}

int czi_private_comm(MPI_Comm comm, MPI_Comm *out) {
  int rc = MPI_SUCCESS, found = 0;
  void *value = NULL;
  MPI_Comm dup = MPI_COMM_NULL;
  pthread_once(&keyval_once, create_keyval);
  CZI_MPI(keyval_rc);
  CZI_MPI(PMPI_Comm_get_attr(comm, keyval, &value, &found));
  if (found) {
    *out = (MPI_Comm)value;
    return MPI_SUCCESS;
  }
  CZI_MPI(PMPI_Comm_dup(comm, &dup));
  CZI_MPI(PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
  CZI_MPI(PMPI_Comm_set_attr(comm, keyval, (void *)dup));
  *out = dup;
  return MPI_SUCCESS;
fn_fail:
  if (dup != MPI_COMM_NULL) PMPI_Comm_free(&dup);
  return rc;
}
