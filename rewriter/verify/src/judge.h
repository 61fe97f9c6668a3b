// judge.h: the verdict from what was measured, without running anything:
// the timed runs (exit statuses, outputs), the two retraces (the targeted
// manual collective gone, the MPI collective come). The checks and their
// order are documented in rewriter/PATCH_FORMAT.md.
#pragma once

#include <string>
#include <vector>

#include "compare.h"
#include "result.h"
#include "retrace.h"
#include "timing.h"

namespace cz::verify {

struct RunRecord {
  int exit = 0;
  bool timedOut = false;
  double seconds = 0;
  std::string out, err;
};

// verdict "" = this part passed; text is the evidence either way.
struct Judgement {
  std::string verdict;
  std::string text;
};

struct RunSettings {
  OutputFilter filter;
  bool compareStderr = true;
  std::string runsDir; // where the outputs are, for messages
};

// Exit statuses, then stdout (and stderr): every patched run must end and
// print as some original run did. "error" when the original itself is not
// repeatable.
Judgement judgeRuns(const std::vector<RunRecord> &original, const std::vector<RunRecord> &patched,
                    const RunSettings &settings);

// "time: original median ... speedup 1.23x", with a note when the ranges
// overlap.
std::string timingLine(const TimingSummary &original, const TimingSummary &patched, int runs);

struct RetraceInputs {
  std::vector<ManualCollective> targets; // from the report; empty: every confirmed one
  int reportRanks = 0;
  std::string reportCommand;
  bool runtimeTarget = false; // cz_* calls leave no collective event
  // The MPI collectives the patch calls (patches.json); empty: those of
  // the targets' kinds.
  std::vector<std::string> expected;
};

// Fills rt (targets as the original run shows them, collectives, matches
// left) and judges: "error", "manual messages remain", "collective missing",
// or "" with the retrace line.
Judgement judgeRetrace(const RetraceInputs &in, const TraceFindings &before,
                       const TraceFindings &after, Retrace &rt);

// "manual bcast on ranks [0, 1], root 1"
std::string describe(const ManualCollective &c);

} // namespace cz::verify
