/* bcast.c: cz_bcast (decision table) and the cz_bcast_<algo> entry points. */
#include "api.h"

static int run_bcast(const char *fn, const czi_algorithm *alg, void *buffer,
                     int count, MPI_Datatype datatype, int root,
                     MPI_Comm comm) {
  int rc = MPI_SUCCESS, param = 0;
  czi_call call;
  czi_clear_error();
  CZI_TRY(czi_check_comm(fn, comm, &call));
  CZI_TRY(czi_check_count(fn, "count", count));
  CZI_TRY(czi_check_type(fn, "datatype", datatype, &call.rt));
  CZI_TRY(czi_check_buffer(fn, "buffer", buffer, count, &call.rt));
  if (root < 0 || root >= call.size)
    return czi_fail(MPI_ERR_ROOT, fn,
                    "root %d is not a rank of the communicator (size %d)",
                    root, call.size);
  if (!alg) {
    czi_choice choice;
    CZI_TRY(czi_select(CZ_COLL_BCAST, call.size,
                       (long long)count * (long long)call.rt.size, &choice));
    alg = choice.alg;
    param = choice.param;
  }
  CZI_TRY(czi_private_comm(comm, &call.priv));
  czi_params params = {param};
  rc = ((czi_bcast_fn)alg->fn)(buffer, count, datatype, root, call.priv,
                               &params);
fn_fail:
  return rc;
}

int cz_bcast(void *buffer, int count, MPI_Datatype datatype, int root,
             MPI_Comm comm) {
  return run_bcast(__func__, NULL, buffer, count, datatype, root, comm);
}

#define CZ_BCAST_ENTRY(algo)                                                \
  int cz_bcast_##algo(void *buffer, int count, MPI_Datatype datatype,       \
                      int root, MPI_Comm comm) {                            \
    return run_bcast(__func__, czi_algorithm_named(CZ_COLL_BCAST, #algo),   \
                     buffer, count, datatype, root, comm);                  \
  }
CZ_BCAST_ENTRY(binomial)
CZ_BCAST_ENTRY(scatter_allgather)
CZ_BCAST_ENTRY(mpi)
