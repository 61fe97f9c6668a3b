// parallel_match.h: the parallel mode of `collectivize detect` (run under
// mpirun). Process p of N decodes the trace ranks r with r % N == p (the
// OTF2 reading and the per-rank bookkeeping, independent per rank) and
// ships the records to process 0, which matches them and runs the
// analyses: the report is the serial mode's, byte for byte.
#pragma once

#include <optional>

#include "collectivize/messages.h"

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

private:
  int rank_ = 0, size_ = 1;
  bool initialized_ = false;
};

struct Timings {
  double decodeMax = 0, decodeMin = 0; // seconds, over processes
  double transfer = 0;                 // process 0: waiting for and unpacking records
  double match = 0;                    // process 0
  uint64_t bytesShipped = 0;           // records sent to process 0
};

// Collective over the session's processes. Process 0 gets the table (the
// same as matchMessages would give); the others get nullopt once their
// records were delivered.
std::optional<MessageTable> matchMessages(const Session &s, const trace::Trace &trace,
                                          Timings *timings = nullptr);

} // namespace cz::detect::parallel
