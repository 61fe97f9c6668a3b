// rank_fate.h: what happened to a rank whose trace is not done, read from
// the empty marker files the tracer leaves beside rank-N.done (stopped,
// finalized, nospace: runtime/trace/format/collectivize_trace_format.h). The
// reader's notes and `trace repair` say it in the same words.
#pragma once

#include <string>

namespace cz::trace::detail {

struct RankFate {
  bool done = false;      // rank-N.done: it finished and wrote its trace
  bool stopped = false;   // tracing stopped while the program ran
  bool finalized = false; // it reached MPI_Finalize without writing its trace
  bool nospace = false;   // the cause was a full disk
  bool killed() const { return !done && !finalized; }
  // Every record it took is kept (only the writing failed): repair makes
  // it complete.
  bool recordsWhole() const { return !done && finalized && !stopped; }
};

RankFate rankFate(const std::string &dir, int rank);

// What happened, for a rank that is not done ("did not reach MPI_Finalize
// (aborted or killed, or still running)", "reached MPI_Finalize but the
// disk was full when it wrote its trace", ...).
std::string describeFate(const RankFate &f);

// Whether any of `ranks` ranks reached MPI_Finalize without writing its
// trace, and whether a full disk was the cause for any.
bool anyFinalized(const std::string &dir, int ranks, bool *nospace);

} // namespace cz::trace::detail
