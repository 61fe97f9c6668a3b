/* wrappers_comm.c: communicator creation and free. Recorded as Enter/Leave
 * of a region named after the call; the Leave carries the new communicator's
 * ref (CZ_TRACE_ATTR_NEW_COMM), the argument communicator's ref
 * (CZ_TRACE_ATTR_COMM), the call's site and MPI_Comm_split's color, by
 * which reports name the communicator. Registration (comms.c) runs whenever
 * the archive is open, paused or not, because it is collective and later
 * events need the mapping. */
#include "tracer.h"

#define CREATE(region, parent, newcomm, call) \
  CREATE_COLORED(region, parent, newcomm, call, 0, 0)

#define CREATE_COLORED(region, parent, newcomm, call, has_color, color) \
  do {                                                                 \
    if (!czt.archive) return call;                                     \
    czt_site site_ = CZT_SITE();                                       \
    int rec_ = czt_recording();                                        \
    if (rec_) czt_write_enter(region);                                 \
    int rc_ = call;                                                    \
    uint32_t ref_ = CZT_COMM_UNDEFINED;                                \
    if (rc_ == MPI_SUCCESS) ref_ = czt_comm_created(parent, *(newcomm), region); \
    if (rec_) {                                                        \
      CZT_LOCK();                                                      \
      uint32_t parent_ref_ = czt_comm_ref(parent);                     \
      CZT_UNLOCK();                                                    \
      czt_write_leave(region, ref_, parent_ref_, site_, has_color, color); \
    }                                                                  \
    return rc_;                                                        \
  } while (0)

CZT_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  CREATE(CZT_REGION_COMM_DUP, comm, newcomm, PMPI_Comm_dup(comm, newcomm));
}

CZT_EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info,
                                      MPI_Comm *newcomm) {
  CREATE(CZT_REGION_COMM_DUP_WITH_INFO, comm, newcomm,
         PMPI_Comm_dup_with_info(comm, info, newcomm));
}

CZT_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key,
                              MPI_Comm *newcomm) {
  CREATE_COLORED(CZT_REGION_COMM_SPLIT, comm, newcomm,
                 PMPI_Comm_split(comm, color, key, newcomm), 1, color);
}

CZT_EXPORT int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                                   MPI_Info info, MPI_Comm *newcomm) {
  CREATE(CZT_REGION_COMM_SPLIT_TYPE, comm, newcomm,
         PMPI_Comm_split_type(comm, split_type, key, info, newcomm));
}

CZT_EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group,
                               MPI_Comm *newcomm) {
  CREATE(CZT_REGION_COMM_CREATE, comm, newcomm,
         PMPI_Comm_create(comm, group, newcomm));
}

CZT_EXPORT int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                                     MPI_Comm *newcomm) {
  CREATE(CZT_REGION_COMM_CREATE_GROUP, comm, newcomm,
         PMPI_Comm_create_group(comm, group, tag, newcomm));
}

CZT_EXPORT int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
                               const int periods[], int reorder,
                               MPI_Comm *newcomm) {
  CREATE(CZT_REGION_CART_CREATE, comm, newcomm,
         PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm));
}

CZT_EXPORT int MPI_Comm_free(MPI_Comm *comm) {
  if (!czt.archive) return PMPI_Comm_free(comm);
  czt_site site = CZT_SITE();
  int rec = czt_recording();
  if (rec) czt_write_enter(CZT_REGION_COMM_FREE);
  uint32_t ref = czt_comm_freed(*comm);
  int rc = PMPI_Comm_free(comm);
  if (rec) czt_write_leave(CZT_REGION_COMM_FREE, CZT_COMM_UNDEFINED, ref, site, 0, 0);
  return rc;
}
