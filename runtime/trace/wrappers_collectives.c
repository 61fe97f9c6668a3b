/* wrappers_collectives.c: MPI collectives the program calls become
 * MpiCollectiveBegin / MpiCollectiveEnd(op, comm, root, bytes sent, bytes
 * received). Bytes are this rank's: what its send buffer contributes and
 * what its receive buffer gets (MPI_IN_PLACE counts the receive side only).
 * The runtime's own collectives use PMPI_* and never come here. */
#include <otf2/otf2.h>

#include "tracer.h"

static uint64_t nbytes(int count, MPI_Datatype type) {
  return czt_type_bytes(count, type);
}
static int comm_size(MPI_Comm comm) {
  int p = 0;
  PMPI_Comm_size(comm, &p);
  return p;
}
static int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
static uint64_t sum_bytes(const int *counts, int n, MPI_Datatype type) {
  uint64_t s = 0;
  if (!counts) return 0;
  for (int i = 0; i < n; i++) s += nbytes(counts[i], type);
  return s;
}

/* Begin, call, End: rec is true when recording. */
#define COLL(op, comm, root, sent, received, call)                          \
  do {                                                                      \
    czt_site site_ = CZT_SITE();                                            \
    if (!czt_recording()) return call;                                      \
    czt_write_coll_begin();                                                 \
    int rc_ = call;                                                         \
    czt_write_coll_end(op, comm, root, sent, received, site_);              \
    return rc_;                                                             \
  } while (0)

CZT_EXPORT int MPI_Barrier(MPI_Comm comm) {
  COLL(OTF2_COLLECTIVE_OP_BARRIER, comm, -1, 0, 0, PMPI_Barrier(comm));
}

CZT_EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
                         MPI_Comm comm) {
  int me = czt_recording() ? comm_rank(comm) : 0;
  uint64_t n = czt_recording() ? nbytes(count, type) : 0;
  COLL(OTF2_COLLECTIVE_OP_BCAST, comm, root, me == root ? n : 0,
       me == root ? 0 : n, PMPI_Bcast(buf, count, type, root, comm));
}

CZT_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) {
  int me = czt_recording() ? comm_rank(comm) : 0;
  uint64_t n = czt_recording() ? nbytes(count, type) : 0;
  COLL(OTF2_COLLECTIVE_OP_REDUCE, comm, root, n, me == root ? n : 0,
       PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

CZT_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  uint64_t n = czt_recording() ? nbytes(count, type) : 0;
  COLL(OTF2_COLLECTIVE_OP_ALLREDUCE, comm, -1, n, n,
       PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

CZT_EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  uint64_t n = czt_recording() ? nbytes(count, type) : 0;
  COLL(OTF2_COLLECTIVE_OP_SCAN, comm, -1, n, n,
       PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
}

CZT_EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  uint64_t n = czt_recording() ? nbytes(count, type) : 0;
  COLL(OTF2_COLLECTIVE_OP_EXSCAN, comm, -1, n, n,
       PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm));
}

CZT_EXPORT int MPI_Gather(const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rec = czt_recording(), me = rec ? comm_rank(comm) : 0;
  uint64_t s = rec && sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  uint64_t r = rec && me == root
                   ? nbytes(recvcount, recvtype) * (uint64_t)comm_size(comm)
                   : 0;
  COLL(OTF2_COLLECTIVE_OP_GATHER, comm, root, s, r,
       PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm));
}

CZT_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rec = czt_recording(), me = rec ? comm_rank(comm) : 0;
  uint64_t s = rec && sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  uint64_t r = rec && me == root
                   ? sum_bytes(recvcounts, comm_size(comm), recvtype)
                   : 0;
  COLL(OTF2_COLLECTIVE_OP_GATHERV, comm, root, s, r,
       PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, root, comm));
}

CZT_EXPORT int MPI_Scatter(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rec = czt_recording(), me = rec ? comm_rank(comm) : 0;
  uint64_t s = rec && me == root
                   ? nbytes(sendcount, sendtype) * (uint64_t)comm_size(comm)
                   : 0;
  uint64_t r = rec && recvbuf != MPI_IN_PLACE ? nbytes(recvcount, recvtype) : 0;
  COLL(OTF2_COLLECTIVE_OP_SCATTER, comm, root, s, r,
       PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm));
}

CZT_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
                            const int displs[], MPI_Datatype sendtype,
                            void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rec = czt_recording(), me = rec ? comm_rank(comm) : 0;
  uint64_t s = rec && me == root
                   ? sum_bytes(sendcounts, comm_size(comm), sendtype)
                   : 0;
  uint64_t r = rec && recvbuf != MPI_IN_PLACE ? nbytes(recvcount, recvtype) : 0;
  COLL(OTF2_COLLECTIVE_OP_SCATTERV, comm, root, s, r,
       PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                     recvtype, root, comm));
}

CZT_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  int rec = czt_recording();
  uint64_t s = rec && sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  uint64_t r =
      rec ? nbytes(recvcount, recvtype) * (uint64_t)comm_size(comm) : 0;
  COLL(OTF2_COLLECTIVE_OP_ALLGATHER, comm, -1, s, r,
       PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, comm));
}

CZT_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  int rec = czt_recording();
  uint64_t s = rec && sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  uint64_t r = rec ? sum_bytes(recvcounts, comm_size(comm), recvtype) : 0;
  COLL(OTF2_COLLECTIVE_OP_ALLGATHERV, comm, -1, s, r,
       PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, comm));
}

CZT_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm) {
  int rec = czt_recording(), p = rec ? comm_size(comm) : 0;
  uint64_t r = rec ? nbytes(recvcount, recvtype) * (uint64_t)p : 0;
  uint64_t s = !rec ? 0
               : sendbuf == MPI_IN_PLACE
                   ? r
                   : nbytes(sendcount, sendtype) * (uint64_t)p;
  COLL(OTF2_COLLECTIVE_OP_ALLTOALL, comm, -1, s, r,
       PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm));
}

CZT_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm) {
  int rec = czt_recording(), p = rec ? comm_size(comm) : 0;
  uint64_t r = rec ? sum_bytes(recvcounts, p, recvtype) : 0;
  uint64_t s = !rec ? 0
               : sendbuf == MPI_IN_PLACE ? r
                                         : sum_bytes(sendcounts, p, sendtype);
  COLL(OTF2_COLLECTIVE_OP_ALLTOALLV, comm, -1, s, r,
       PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                      recvcounts, rdispls, recvtype, comm));
}

CZT_EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                             const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm) {
  int rec = czt_recording(), p = rec ? comm_size(comm) : 0;
  uint64_t s = 0, r = 0;
  for (int i = 0; i < p; i++) {
    r += nbytes(recvcounts[i], recvtypes[i]);
    if (sendbuf != MPI_IN_PLACE) s += nbytes(sendcounts[i], sendtypes[i]);
  }
  if (sendbuf == MPI_IN_PLACE) s = r;
  COLL(OTF2_COLLECTIVE_OP_ALLTOALLW, comm, -1, s, r,
       PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                      recvcounts, rdispls, recvtypes, comm));
}

CZT_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
                                  const int recvcounts[], MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm) {
  int rec = czt_recording();
  uint64_t s = rec ? sum_bytes(recvcounts, comm_size(comm), type) : 0;
  uint64_t r = rec ? nbytes(recvcounts[comm_rank(comm)], type) : 0;
  COLL(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm, -1, s, r,
       PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm));
}

CZT_EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
                                        int recvcount, MPI_Datatype type,
                                        MPI_Op op, MPI_Comm comm) {
  int rec = czt_recording();
  uint64_t r = rec ? nbytes(recvcount, type) : 0;
  uint64_t s = rec ? r * (uint64_t)comm_size(comm) : 0;
  COLL(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, comm, -1, s, r,
       PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm));
}
