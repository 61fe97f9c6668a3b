/* wrappers_collectives.c: MPI collectives the program calls become
 * MpiCollectiveBegin / MpiCollectiveEnd(op, comm, root, bytes sent, bytes
 * received) around the call (bytes: collective_bytes.c). The runtime's own
 * collectives use PMPI_* and never come here. */
#include <otf2/otf2.h>

#include "tracer.h"

CZT_EXPORT int MPI_Barrier(MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_BARRIER, comm, -1, czt_bytes_none(), PMPI_Barrier(comm));
}

CZT_EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_BCAST, comm, root, czt_bytes_bcast(count, type, root, comm),
           PMPI_Bcast(buf, count, type, root, comm));
}

CZT_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, int root, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_REDUCE, comm, root, czt_bytes_reduce(count, type, root, comm),
           PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

CZT_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLREDUCE, comm, -1, czt_bytes_allreduce(count, type),
           PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

CZT_EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_SCAN, comm, -1, czt_bytes_allreduce(count, type),
           PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
}

CZT_EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_EXSCAN, comm, -1, czt_bytes_allreduce(count, type),
           PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm));
}

CZT_EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_GATHER, comm, root,
           czt_bytes_gather(sendbuf, sendcount, sendtype, recvcount, recvtype, root, comm),
           PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

CZT_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_GATHERV, comm, root,
           czt_bytes_gatherv(sendbuf, sendcount, sendtype, recvcounts, recvtype, root, comm),
           PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                        root, comm));
}

CZT_EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_SCATTER, comm, root,
           czt_bytes_scatter(sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
           PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

CZT_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_SCATTERV, comm, root,
           czt_bytes_scatterv(sendcounts, sendtype, recvbuf, recvcount, recvtype, root, comm),
           PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                         root, comm));
}

CZT_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLGATHER, comm, -1,
           czt_bytes_allgather(sendbuf, sendcount, sendtype, recvcount, recvtype, comm),
           PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

CZT_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLGATHERV, comm, -1,
           czt_bytes_allgatherv(sendbuf, sendcount, sendtype, recvcounts, recvtype, comm),
           PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm));
}

CZT_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLTOALL, comm, -1,
           czt_bytes_alltoall(sendbuf, sendcount, sendtype, recvcount, recvtype, comm),
           PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

CZT_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLTOALLV, comm, -1,
           czt_bytes_alltoallv(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm),
           PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm));
}

CZT_EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLTOALLW, comm, -1,
           czt_bytes_alltoallw(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm),
           PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm));
}

CZT_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                  MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm, -1,
           czt_bytes_reduce_scatter(recvcounts, type, comm),
           PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm));
}

CZT_EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                        MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  CZT_COLL(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, comm, -1,
           czt_bytes_reduce_scatter_block(recvcount, type, comm),
           PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm));
}
