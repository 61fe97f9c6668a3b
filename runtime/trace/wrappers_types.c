/* wrappers_types.c: MPI_Type_free stores the late receive first (see
 * czt_record_recv): its record reads the receive's datatype, and a
 * freed handle may be reused for another type. */
#include "tracer.h"

CZT_EXPORT int MPI_Type_free(MPI_Datatype *type) {
  if (czt_late_pending) czt_store_late();
  return PMPI_Type_free(type);
}
