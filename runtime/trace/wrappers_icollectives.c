/* wrappers_icollectives.c: nonblocking collectives the program starts are
 * recorded like blocking ones, MpiCollectiveBegin / MpiCollectiveEnd
 * around the call that starts them: what matters to the detector is that
 * the program called a collective there, not when it completed (the
 * completing Wait/Test is not recorded for them). */
#include <otf2/otf2.h>

#include "tracer.h"

CZT_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_BARRIER, comm, -1, czt_bytes_none(), PMPI_Ibarrier(comm, req));
}

CZT_EXPORT int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                          MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_BCAST, comm, root, czt_bytes_bcast(count, type, root, comm),
           PMPI_Ibcast(buf, count, type, root, comm, req));
}

CZT_EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                           MPI_Op op, int root, MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_REDUCE, comm, root, czt_bytes_reduce(count, type, root, comm),
           PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, req));
}

CZT_EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLREDUCE, comm, -1, czt_bytes_allreduce(count, type),
           PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, req));
}

CZT_EXPORT int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_GATHER, comm, root,
           czt_bytes_gather(sendbuf, sendcount, sendtype, recvcount, recvtype, root, comm),
           PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        req));
}

CZT_EXPORT int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_SCATTER, comm, root,
           czt_bytes_scatter(sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
           PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                         req));
}

CZT_EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLGATHER, comm, -1,
           czt_bytes_allgather(sendbuf, sendcount, sendtype, recvcount, recvtype, comm),
           PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           req));
}

CZT_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLTOALL, comm, -1,
           czt_bytes_alltoall(sendbuf, sendcount, sendtype, recvcount, recvtype, comm),
           PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          req));
}

CZT_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *req) {
  CZT_COLL(OTF2_COLLECTIVE_OP_ALLTOALLV, comm, -1,
           czt_bytes_alltoallv(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm),
           PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, req));
}
