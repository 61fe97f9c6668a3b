// collect_at_root.h: what the analyses after the replay need, on process
// 0: every rank's counts and kept buffers, the matched messages (table
// rows, from their senders' owners) and every process's replay part,
// which make the serial mode's table and provenance (origins renumbered
// as the serial replay numbers them).
#pragma once

#include <mpi.h>

#include <optional>

#include "collectivize/parallel_match.h"
#include "distributed_match.h"

namespace cz::detect::parallel {

// Collective over comm; process 0 gets the result, the others nullopt.
// bytesSent: what this process sent to process 0.
std::optional<ParallelResult> collectAtRoot(MPI_Comm comm, const trace::Trace &trace,
                                            DistributedMatch match, ReplayPart part,
                                            uint64_t *bytesSent);

} // namespace cz::detect::parallel
