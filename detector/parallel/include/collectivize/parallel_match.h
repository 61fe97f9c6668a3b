// parallel_match.h: the parallel mode of `collectivize detect` (run under
// mpirun, one analysis process per share of the traced ranks). Process p
// of N owns the trace ranks r with r % N == p: it decodes them, matches
// their receives against the sends routed to it (distributed_match.h),
// and replays their provenance (distributed_provenance.h), their buffer
// maps living only there. Process 0 then collects the message table and
// the provenance (collect_at_root.h) and runs the other analyses: the
// report is the serial mode's, byte for byte.
#pragma once

#include <optional>
#include <vector>

#include "collectivize/detect.h"
#include "collectivize/messages.h"
#include "collectivize/provenance.h"
#include "collectivize/report.h"

namespace cz::detect::parallel {

// MPI_Init on construction (unless already initialized), MPI_Finalize on
// destruction (if it initialized).
class Session {
public:
  Session(int *argc, char ***argv);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every process passes its own verdict; true when all passed true.
  bool allOk(bool ok) const;
  // Process 0's value, on every process.
  bool fromRoot(bool value) const;
  // Ends every process (MPI_Abort): for a process that cannot go on while
  // the others would wait for it.
  [[noreturn]] void abort(int code) const;

private:
  int rank_ = 0, size_ = 1;
  bool initialized_ = false;
};

// One process's phases (wall seconds) and volumes.
struct ProcessTimes {
  double decode = 0, match = 0, replay = 0, replayWaiting = 0, transfer = 0;
  double windows_s = 0;        // windowed: planning, routing and analysing its windows
  double peakMegabytes = 0;    // resident, at the end of the transfer
  uint64_t ranks = 0, sentRecords = 0;
  uint64_t routedBytes = 0;    // send records to other processes (matching)
  uint64_t replayBytes = 0;    // replay records to other processes
  uint64_t bytesToRoot = 0;    // its share, sent to process 0 (windowed: to the owners)
  uint64_t windows = 0;        // windowed: the windows it analysed
};

struct ParallelResult {
  // One window: the whole table and its provenance. Several windows
  // (windowed): the table's header (groups, counts, warnings; no
  // messages), and the windows' findings, merged (windows_at_owners.h).
  MessageTable table;
  cz::detect::detail::Provenance provenance;
  bool windowed = false;
  size_t windows = 1;
  std::vector<Finding> findings;
  SiteLocations sites;                     // return-address sites resolved
  std::string symbolizeProblem;
  std::vector<uint64_t> instrumenterSites; // distinct instrumenter ids of the messages
};

// Collective over the session's processes. Process 0 gets the table and
// its provenance (what matchMessages and traceProvenance would give) and,
// with times, every process's times (index: process); the others get
// nullopt. Throws std::runtime_error when processes send what cannot be.
// When the trace has more matched messages than options.windowMessages,
// the windows are analysed on their owners (with options) instead.
std::optional<ParallelResult> readMatchAndReplay(const Session &s, const trace::Trace &trace,
                                                 const std::string &traceDir,
                                                 const DetectOptions &options,
                                                 std::vector<ProcessTimes> *times = nullptr);

} // namespace cz::detect::parallel
