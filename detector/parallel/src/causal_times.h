// causal_times.h: the serial detector's causal pass (causal_order.h) in the
// parallel mode, between matching and the replay. Each process checks its
// own ranks' events; only when some time contradicts the matching (clocks
// of several nodes) are every rank's events gathered at process 0 (32
// bytes each), put in causal order there as the serial pass does, and
// their times (and their messages' other ends) sent back.
#pragma once

#include <mpi.h>

#include "distributed_match.h"

namespace cz::detect::parallel {

// Collective over comm. Returns how many times were raised (on every
// process).
uint64_t orderCausallyAcross(MPI_Comm comm, int ranks, DistributedMatch &match);

} // namespace cz::detect::parallel
