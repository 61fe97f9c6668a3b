/* PLACEHOLDER: to be written. */
#include "cz_internal.h"

int czi_alltoall_spread_out(CZI_ALLTOALL_ARGS) {
  return czi_fail(MPI_ERR_UNSUPPORTED_OPERATION, __func__, "not written yet");
}
