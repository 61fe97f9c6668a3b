// distributed_provenance.h: the provenance replay across the processes of
// the parallel mode (replay_process.h says what each process does).
//
// Transport: a process replays its ranks as far as they can go, then sends
// each other process the replay records made for it, in one MPI_Isend per
// process and pass (also every kFlushSteps steps, so a long stretch of
// local work does not hold a waiting process back), and, when none of its
// ranks can go on, waits in MPI_Probe for records (any source, the replay
// tag, on a communicator of its own).
//
// Why it cannot deadlock: the steps of all ranks have a total order
// (ReplayKey) in which every send precedes its receive, and each rank's
// steps are replayed in that order. The earliest step not yet replayed is
// therefore always possible: a send needs nothing; a receive needs its
// send's record, and that send, earlier, was replayed and its record sent
// before its process could wait. So some process always progresses, and
// each process receives exactly the records of its ranks' receives before
// it finishes (so every MPI_Isend completes: MPI_Waitall at the end).
#pragma once

#include <mpi.h>

#include "replay_process.h"

namespace cz::detect::parallel {

struct ReplayStats {
  double seconds = 0, waiting = 0; // waiting: in MPI_Probe, nothing to do
  uint64_t recordsSent = 0, recordsReceived = 0, bytesSent = 0;
};

// Collective over comm. Throws std::runtime_error on malformed records.
ReplayPart replayDistributed(MPI_Comm comm, const ReplayInput &in, ReplayStats *stats = nullptr);

} // namespace cz::detect::parallel
