// windows_at_owners.h: the parallel mode for traces of more matched
// messages than one window holds (windows.h). After matching and the
// provenance replay, window w goes to process w % N: each process sends
// every matched message it holds as the sender's owner (with its replay
// segments, replay verdict and block CRCs; call sites symbolized and block
// CRC files read there first, as the serial mode does on the whole table)
// to its window's owner, and kept buffers likewise; the owners fetch the
// origins their segments name from the processes that made them. Each
// owner then builds each of its windows as the serial mode's windowOf
// would (messages in table order, origins in serial order) and runs
// findInWindow on it. Process 0 gets the findings, merges them in window
// order, and holds only the table's header (groups, counts, warnings):
// no process holds much more than its share of the trace.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include "collectivize/detect.h"
#include "collectivize/report.h"
#include "collectivize/windows.h"
#include "distributed_match.h"
#include "replay_process.h"

namespace cz::detect::parallel {

struct WindowedFindings {
  MessageTable header;            // groups, counts, warnings; no messages
  std::vector<Finding> findings;  // every window's, merged in time order
  SiteLocations sites;            // return-address sites resolved
  std::string symbolizeProblem;
  std::vector<uint64_t> instrumenterSites; // distinct instrumenter ids of the messages
  size_t windows = 1;
};

// Collective: the plan of the processes' matched messages (`rows`: this
// process's), the same on every process and the serial mode's
// planWindows(table) of the whole table.
WindowPlan planWindowsTogether(MPI_Comm comm, const std::vector<Message> &rows,
                               uint64_t windowMessages);

// Collective; process 0 gets the findings, the others nullopt.
// bytesSent: what this process sent to others (rows, origins, findings).
std::optional<WindowedFindings> analyseWindows(MPI_Comm comm, const trace::Trace &trace,
                                               const std::string &traceDir, DistributedMatch match,
                                               ReplayPart part, const WindowPlan &plan,
                                               const DetectOptions &options, uint64_t *bytesSent);

} // namespace cz::detect::parallel
