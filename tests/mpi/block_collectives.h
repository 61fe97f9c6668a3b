// block_collectives.h: alltoall and allgather (same arguments, P blocks of
// recvcount elements received) run by name and checked against the MPI
// library's own collective on identical buffers.
#pragma once

#include <string>

#include <mpi.h>

#include "buffers.h"
#include "collectivize.h"

namespace cztest {

struct BlockCall {
  const Layout *sendType;
  int sendCount;
  const Layout *recvType;
  int recvCount;
  bool inPlace = false;
  MPI_Comm comm = MPI_COMM_WORLD;
  int salt = 0;
  int calls = 1; // consecutive candidate calls on comm before the reference
};

// Same type and count on both sides.
BlockCall sameTypes(const Layout &layout, int count);

// coll is CZ_COLL_ALLTOALL or CZ_COLL_ALLGATHER. Collective over call.comm.
// Returns "" when every call succeeded and left the receive buffer (gaps
// included) byte-identical to PMPI_Alltoall / PMPI_Allgather's; otherwise
// what went wrong on this rank.
std::string checkBlockCollective(cz_collective coll,
                                 const std::string &algorithm,
                                 const BlockCall &call);

} // namespace cztest
