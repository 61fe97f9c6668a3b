/* fortran_arrays.c: request and status arrays of the Fortran array calls
 * (Waitall, Startall, ...) converted for the C wrappers and back (Open MPI,
 * and MPICH's mpi_f08: see fortran.h). */
#include <stdlib.h>

#include "fortran.h"

#ifdef CZT_F_CONVERTS
int czt_f_arrays_in(czt_f_arrays *a, int n, const MPI_Fint *freq, const MPI_Fint *fst) {
  size_t count = n > 0 ? (size_t)n : 0;
  a->req = a->req_local;
  a->st = MPI_STATUSES_IGNORE;
  if (count > CZT_F_LOCAL && !(a->req = malloc(count * sizeof *a->req))) return MPI_ERR_NO_MEM;
  if (fst && fst != CZT_F_STATUSES_IGNORE) {
    a->st = count > CZT_F_LOCAL ? malloc(count * sizeof *a->st) : a->st_local;
    if (!a->st) {
      czt_f_arrays_free(a);
      return MPI_ERR_NO_MEM;
    }
  }
  for (size_t i = 0; i < count; i++) a->req[i] = PMPI_Request_f2c(freq[i]);
  return MPI_SUCCESS;
}

void czt_f_arrays_out(const czt_f_arrays *a, int n, MPI_Fint *freq, MPI_Fint *fst, int nst) {
  for (int i = 0; i < n; i++) freq[i] = PMPI_Request_c2f(a->req[i]);
  if (a->st == MPI_STATUSES_IGNORE) return;
  for (int i = 0; i < nst; i++) PMPI_Status_c2f(&a->st[i], fst + (size_t)i * CZT_F_STATUS_SIZE);
}

void czt_f_arrays_free(czt_f_arrays *a) {
  if (a->req && a->req != a->req_local) free(a->req);
  if (a->st != MPI_STATUSES_IGNORE && a->st != a->st_local) free(a->st);
  a->req = NULL;
  a->st = MPI_STATUSES_IGNORE;
}
#endif
