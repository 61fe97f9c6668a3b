// rank_fate.cpp: see rank_fate.h.
#include "rank_fate.h"

#include <sys/stat.h>

#include <cstdio>

#include "collectivize_trace_format.h"

namespace cz::trace::detail {
namespace {

bool marked(const std::string &dir, const char *fmt, int rank) {
  char name[64];
  std::snprintf(name, sizeof name, fmt, rank);
  struct stat st;
  return stat((dir + "/" + name).c_str(), &st) == 0;
}

} // namespace

RankFate rankFate(const std::string &dir, int rank) {
  RankFate f;
  f.done = marked(dir, CZ_TRACE_DONE_FMT, rank);
  f.stopped = marked(dir, CZ_TRACE_STOPPED_FMT, rank);
  f.finalized = marked(dir, CZ_TRACE_FINALIZED_FMT, rank);
  f.nospace = marked(dir, CZ_TRACE_NOSPACE_FMT, rank);
  return f;
}

std::string describeFate(const RankFate &f) {
  std::string cause = f.nospace ? "the disk was full" : "a write failed";
  if (f.done) return "finished";
  if (f.recordsWhole())
    return "reached MPI_Finalize, but " + cause + " when it wrote its trace (every record is kept)";
  if (f.finalized)
    return "reached MPI_Finalize; tracing had stopped during the run because " + cause +
           " (its records up to then are kept)";
  if (f.stopped)
    return "did not reach MPI_Finalize (aborted or killed, or still running); tracing had "
           "stopped before because " + cause;
  return "did not reach MPI_Finalize (aborted or killed, or still running)";
}

bool anyFinalized(const std::string &dir, int ranks, bool *nospace) {
  bool any = false;
  *nospace = false;
  for (int r = 0; r < ranks; r++) {
    RankFate f = rankFate(dir, r);
    if (f.finalized) any = true, *nospace = *nospace || f.nospace;
  }
  return any;
}

} // namespace cz::trace::detail
