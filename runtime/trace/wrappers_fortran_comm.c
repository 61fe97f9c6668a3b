/* wrappers_fortran_comm.c: on Open MPI and MPICH's mpi_f08 (see fortran.h), the Fortran calls
 * that start and end tracing (MPI_Init, MPI_Init_thread, MPI_Finalize;
 * Open MPI's own Fortran MPI_Init is PMPI_Init with no arguments, so
 * calling the C wrapper the same way changes nothing), MPI_Abort and
 * MPI_Type_free (they store the late receive), and communicator creation
 * and release (wrappers_comm.c registers them). */
#include <stdlib.h>

#include "fortran.h"

#ifdef CZT_F_CONVERTS
typedef MPI_Fint F;

CZT_F_NAMES(mpi_init, MPI_INIT, (F *ierr)) {
  int argc = 0;
  char **argv = NULL;
  czt_f_ierr(ierr, MPI_Init(&argc, &argv));
}

CZT_F_NAMES(mpi_init_thread, MPI_INIT_THREAD, (F *required, F *provided, F *ierr)) {
  int argc = 0, p = MPI_THREAD_SINGLE;
  char **argv = NULL;
  int rc = MPI_Init_thread(&argc, &argv, *required, &p);
  if (rc == MPI_SUCCESS) *provided = p;
  czt_f_ierr(ierr, rc);
}

CZT_F_NAMES(mpi_finalize, MPI_FINALIZE, (F *ierr)) { czt_f_ierr(ierr, MPI_Finalize()); }

CZT_F_NAMES(mpi_abort, MPI_ABORT, (F *comm, F *errorcode, F *ierr)) {
  czt_f_ierr(ierr, MPI_Abort(PMPI_Comm_f2c(*comm), *errorcode));
}

CZT_F_NAMES(mpi_type_free, MPI_TYPE_FREE, (F *type, F *ierr)) {
  MPI_Datatype t = PMPI_Type_f2c(*type);
  int rc = MPI_Type_free(&t);
  if (rc == MPI_SUCCESS) *type = PMPI_Type_c2f(t);
  czt_f_ierr(ierr, rc);
}

/* The creating call, with the program's return address as the site the
 * C wrapper records (the communicator is named by it: "MPI_Cart_create at
 * ring.f90:38", not at this file), then the new communicator back to
 * Fortran. c is the C call's output. */
#define NEW_COMM(expr)                                       \
  do {                                                       \
    CZT_F_CALLER_SITE();                                     \
    int rc_ = (expr);                                        \
    czt_drop_site();                                         \
    if (rc_ == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);     \
    czt_f_ierr(ierr, rc_);                                   \
  } while (0)

CZT_F_NAMES(mpi_comm_dup, MPI_COMM_DUP, (F *comm, F *newcomm, F *ierr)) {
  MPI_Comm c;
  NEW_COMM(MPI_Comm_dup(PMPI_Comm_f2c(*comm), &c));
}

CZT_F_NAMES(mpi_comm_dup_with_info, MPI_COMM_DUP_WITH_INFO,
            (F *comm, F *info, F *newcomm, F *ierr)) {
  MPI_Comm c;
  NEW_COMM(MPI_Comm_dup_with_info(PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &c));
}

CZT_F_NAMES(mpi_comm_split, MPI_COMM_SPLIT, (F *comm, F *color, F *key, F *newcomm, F *ierr)) {
  MPI_Comm c;
  NEW_COMM(MPI_Comm_split(PMPI_Comm_f2c(*comm), *color, *key, &c));
}

CZT_F_NAMES(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE,
            (F *comm, F *split_type, F *key, F *info, F *newcomm, F *ierr)) {
  MPI_Comm c;
  NEW_COMM(MPI_Comm_split_type(PMPI_Comm_f2c(*comm), *split_type, *key, PMPI_Info_f2c(*info), &c));
}

CZT_F_NAMES(mpi_comm_create, MPI_COMM_CREATE, (F *comm, F *group, F *newcomm, F *ierr)) {
  MPI_Comm c;
  NEW_COMM(MPI_Comm_create(PMPI_Comm_f2c(*comm), PMPI_Group_f2c(*group), &c));
}

CZT_F_NAMES(mpi_comm_create_group, MPI_COMM_CREATE_GROUP,
            (F *comm, F *group, F *tag, F *newcomm, F *ierr)) {
  MPI_Comm c;
  NEW_COMM(MPI_Comm_create_group(PMPI_Comm_f2c(*comm), PMPI_Group_f2c(*group), *tag, &c));
}

/* periods and reorder are LOGICALs: any non-zero value is .TRUE. */
CZT_F_NAMES(mpi_cart_create, MPI_CART_CREATE,
            (F *comm, F *ndims, F *dims, F *periods, F *reorder, F *newcomm, F *ierr)) {
  int n = *ndims > 0 ? *ndims : 0;
  int *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
  if (!p) {
    czt_f_ierr(ierr, MPI_ERR_NO_MEM);
    return;
  }
  for (int i = 0; i < n; i++) p[i] = periods[i] != 0;
  MPI_Comm c;
  NEW_COMM(MPI_Cart_create(PMPI_Comm_f2c(*comm), *ndims, dims, p, *reorder != 0, &c));
  free(p);
}

CZT_F_NAMES(mpi_comm_free, MPI_COMM_FREE, (F *comm, F *ierr)) {
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  int rc = MPI_Comm_free(&c);
  if (rc == MPI_SUCCESS) *comm = PMPI_Comm_c2f(c);
  czt_f_ierr(ierr, rc);
}
#endif
