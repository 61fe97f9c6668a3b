#include "block_collectives.h"

#include <cstring>
#include <vector>

#include "algorithms.h"

namespace cztest {

BlockCall sameTypes(const Layout &layout, int count) {
  BlockCall call{&layout, count, &layout, count};
  return call;
}

namespace {

int runCandidate(cz_collective coll, const std::string &algorithm,
                 const void *send, const BlockCall &c, void *recv) {
  const bool dispatch = algorithm == kDispatch;
  if (coll == CZ_COLL_ALLTOALL)
    return dispatch ? cz_alltoall(send, c.sendCount, c.sendType->type, recv,
                                  c.recvCount, c.recvType->type, c.comm)
                    : cz_alltoall_algorithm(algorithm.c_str(), send, c.sendCount,
                                            c.sendType->type, recv, c.recvCount,
                                            c.recvType->type, c.comm);
  return dispatch ? cz_allgather(send, c.sendCount, c.sendType->type, recv,
                                 c.recvCount, c.recvType->type, c.comm)
                  : cz_allgather_algorithm(algorithm.c_str(), send, c.sendCount,
                                           c.sendType->type, recv, c.recvCount,
                                           c.recvType->type, c.comm);
}

// Alltoall as P-1 PMPI_Sendrecv steps plus the local block: the reference
// when send and receive types differ, where Open MPI's own MPI_Alltoall is
// wrong before 4.1.5 (its Bruck, picked for small blocks at larger P, mixes
// up the two types: open-mpi/ompi#10488; Debian 12 ships 4.1.4).
int pointToPointAlltoall(const void *send, const BlockCall &c, void *recv) {
  int size = 0, rank = 0;
  MPI_Comm_size(c.comm, &size);
  MPI_Comm_rank(c.comm, &rank);
  const MPI_Aint sendBlock = c.sendCount * c.sendType->extent;
  const MPI_Aint recvBlock = c.recvCount * c.recvType->extent;
  for (int step = 0; step < size; step++) {
    int to = (rank + step) % size, from = (rank - step + size) % size;
    int rc = PMPI_Sendrecv(static_cast<const char *>(send) + to * sendBlock,
                           c.sendCount, c.sendType->type, to, 99,
                           static_cast<char *>(recv) + from * recvBlock,
                           c.recvCount, c.recvType->type, from, 99, c.comm,
                           MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int runReference(cz_collective coll, const void *send, const BlockCall &c,
                 void *recv) {
  if (coll == CZ_COLL_ALLTOALL && c.sendType != c.recvType && !c.inPlace)
    return pointToPointAlltoall(send, c, recv);
  if (coll == CZ_COLL_ALLTOALL)
    return PMPI_Alltoall(send, c.sendCount, c.sendType->type, recv,
                         c.recvCount, c.recvType->type, c.comm);
  return PMPI_Allgather(send, c.sendCount, c.sendType->type, recv, c.recvCount,
                        c.recvType->type, c.comm);
}

} // namespace

std::string checkBlockCollective(cz_collective coll,
                                 const std::string &algorithm,
                                 const BlockCall &c) {
  int size = 0, rank = 0;
  MPI_Comm_size(c.comm, &size);
  MPI_Comm_rank(c.comm, &rank);
  const size_t recvBlock = static_cast<size_t>(c.recvCount) * c.recvType->extent;
  const size_t sendBlocks = coll == CZ_COLL_ALLTOALL ? size : 1;
  const size_t sendBytes = sendBlocks * c.sendCount * c.sendType->extent;

  std::vector<Bytes> send(c.calls), expected(c.calls), actual(c.calls);
  for (int i = 0; i < c.calls; i++) {
    expected[i].resize(size * recvBlock);
    if (c.inPlace && coll == CZ_COLL_ALLTOALL) {
      // The receive buffer is the send buffer.
      fillPayload(expected[i], rank, c.salt + i);
    } else if (c.inPlace) {
      // Allgather: this rank's contribution sits in its own block.
      fillSentinel(expected[i]);
      Bytes mine(recvBlock);
      fillPayload(mine, rank, c.salt + i);
      if (recvBlock) std::memcpy(&expected[i][rank * recvBlock], mine.data(), recvBlock);
    } else {
      fillSentinel(expected[i]);
      send[i].resize(sendBytes);
      fillPayload(send[i], rank, c.salt + i);
    }
    actual[i] = expected[i];
  }

  // Every rank makes every call, even after an error, so that no rank is left
  // waiting in a collective the others skipped.
  std::string problem;
  for (int i = 0; i < c.calls; i++) {
    const void *sendbuf = c.inPlace ? MPI_IN_PLACE : send[i].data();
    int rc = runCandidate(coll, algorithm, sendbuf, c, actual[i].data());
    if (rc != MPI_SUCCESS && problem.empty())
      problem = "call " + std::to_string(i + 1) + " " + describeReturn(rc);
  }
  for (int i = 0; i < c.calls; i++) {
    const void *sendbuf = c.inPlace ? MPI_IN_PLACE : send[i].data();
    int rc = runReference(coll, sendbuf, c, expected[i].data());
    if (rc != MPI_SUCCESS && problem.empty())
      problem = "reference (MPI library) failed with " + std::to_string(rc);
  }
  if (!problem.empty()) return problem;
  for (int i = 0; i < c.calls; i++) {
    std::string diff = compareBuffers(expected[i], actual[i]);
    if (!diff.empty())
      return "call " + std::to_string(i + 1) + ": receive buffer: " + diff;
  }
  return "";
}

} // namespace cztest
