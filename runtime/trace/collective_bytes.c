/* collective_bytes.c: the bytes a rank sends and receives in a collective
 * it calls (for MpiCollectiveEnd): what its send buffer contributes and
 * what its receive buffer gets; MPI_IN_PLACE counts the receive side. */
#include "tracer.h"

static uint64_t nbytes(int count, MPI_Datatype type) {
  return czt_type_bytes(count, type);
}
static uint64_t comm_size(MPI_Comm comm) {
  int p = 0;
  PMPI_Comm_size(comm, &p);
  return (uint64_t)p;
}
static int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
static uint64_t sum_bytes(const int *counts, uint64_t n, MPI_Datatype type) {
  uint64_t s = 0;
  for (uint64_t i = 0; counts && i < n; i++) s += nbytes(counts[i], type);
  return s;
}
static czt_bytes both(uint64_t s, uint64_t r) {
  czt_bytes b = {s, r};
  return b;
}

czt_bytes czt_bytes_none(void) { return both(0, 0); }

czt_bytes czt_bytes_bcast(int count, MPI_Datatype type, int root, MPI_Comm comm) {
  uint64_t n = nbytes(count, type);
  return comm_rank(comm) == root ? both(n, 0) : both(0, n);
}

czt_bytes czt_bytes_reduce(int count, MPI_Datatype type, int root, MPI_Comm comm) {
  uint64_t n = nbytes(count, type);
  return both(n, comm_rank(comm) == root ? n : 0);
}

czt_bytes czt_bytes_allreduce(int count, MPI_Datatype type) {
  uint64_t n = nbytes(count, type);
  return both(n, n);
}

czt_bytes czt_bytes_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  uint64_t s = sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  return both(s, comm_rank(comm) == root ? nbytes(recvcount, recvtype) * comm_size(comm) : 0);
}

czt_bytes czt_bytes_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            const int *recvcounts, MPI_Datatype recvtype, int root,
                            MPI_Comm comm) {
  uint64_t s = sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  return both(s, comm_rank(comm) == root ? sum_bytes(recvcounts, comm_size(comm), recvtype) : 0);
}

czt_bytes czt_bytes_scatter(int sendcount, MPI_Datatype sendtype, const void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  uint64_t s = comm_rank(comm) == root ? nbytes(sendcount, sendtype) * comm_size(comm) : 0;
  return both(s, recvbuf != MPI_IN_PLACE ? nbytes(recvcount, recvtype) : 0);
}

czt_bytes czt_bytes_scatterv(const int *sendcounts, MPI_Datatype sendtype, const void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  uint64_t s = comm_rank(comm) == root ? sum_bytes(sendcounts, comm_size(comm), sendtype) : 0;
  return both(s, recvbuf != MPI_IN_PLACE ? nbytes(recvcount, recvtype) : 0);
}

czt_bytes czt_bytes_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  uint64_t s = sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  return both(s, nbytes(recvcount, recvtype) * comm_size(comm));
}

czt_bytes czt_bytes_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm) {
  uint64_t s = sendbuf != MPI_IN_PLACE ? nbytes(sendcount, sendtype) : 0;
  return both(s, sum_bytes(recvcounts, comm_size(comm), recvtype));
}

czt_bytes czt_bytes_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  uint64_t p = comm_size(comm), r = nbytes(recvcount, recvtype) * p;
  return both(sendbuf == MPI_IN_PLACE ? r : nbytes(sendcount, sendtype) * p, r);
}

czt_bytes czt_bytes_alltoallv(const void *sendbuf, const int *sendcounts, MPI_Datatype sendtype,
                              const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm) {
  uint64_t p = comm_size(comm), r = sum_bytes(recvcounts, p, recvtype);
  return both(sendbuf == MPI_IN_PLACE ? r : sum_bytes(sendcounts, p, sendtype), r);
}

czt_bytes czt_bytes_alltoallw(const void *sendbuf, const int *sendcounts,
                              const MPI_Datatype *sendtypes, const int *recvcounts,
                              const MPI_Datatype *recvtypes, MPI_Comm comm) {
  uint64_t p = comm_size(comm), s = 0, r = 0;
  for (uint64_t i = 0; i < p; i++) {
    r += nbytes(recvcounts[i], recvtypes[i]);
    if (sendbuf != MPI_IN_PLACE) s += nbytes(sendcounts[i], sendtypes[i]);
  }
  return both(sendbuf == MPI_IN_PLACE ? r : s, r);
}

czt_bytes czt_bytes_reduce_scatter(const int *recvcounts, MPI_Datatype type, MPI_Comm comm) {
  return both(sum_bytes(recvcounts, comm_size(comm), type),
              nbytes(recvcounts[comm_rank(comm)], type));
}

czt_bytes czt_bytes_reduce_scatter_block(int recvcount, MPI_Datatype type, MPI_Comm comm) {
  uint64_t r = nbytes(recvcount, type);
  return both(r * comm_size(comm), r);
}
