/* PLACEHOLDER: to be written. */
#include "cz_internal.h"

int czi_allgather_gather_bcast(CZI_ALLGATHER_ARGS) {
  return czi_fail(MPI_ERR_UNSUPPORTED_OPERATION, __func__, "not written yet");
}
