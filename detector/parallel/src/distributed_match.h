// distributed_match.h: matching where the receiver is. Every process sends
// its ranks' send records to the process owning each destination rank
// (one MPI_Alltoallv), matches its own ranks' receives against them as
// matchQueues does (a queue's sends and receives are all there), and tells
// the senders' owners which of their sends matched, and with what receive
// (a second MPI_Alltoallv, the first one's layout reversed). A message is
// then known whole on both its sender's and its receiver's owner.
#pragma once

#include <mpi.h>

#include <vector>

#include "collectivize/messages.h"
#include "replay_process.h"

namespace cz::detect::parallel {

struct DistributedMatch {
  ReplayInput replay;                  // this process's share of the messages
  std::vector<RankRecords> summaries;  // owned ranks' records, sends and receives taken out
  QueueCounts unmatched;               // of the queues of owned receivers
  std::vector<uint64_t> matchedPerRank; // every rank's matched sends (on every process)
  uint64_t bytesRouted = 0;            // send records sent to other processes
};

// Collective over comm; owned: this process's decoded ranks, ascending,
// rank r on process r % size.
DistributedMatch matchAtReceivers(MPI_Comm comm, int ranks, std::vector<RankRecords> owned);

} // namespace cz::detect::parallel
