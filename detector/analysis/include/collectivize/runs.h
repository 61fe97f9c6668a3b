// runs.h: several traces of one program (other process counts, other
// inputs) as evidence for each other. A collective is the same in two runs
// when the same call sites form the same kind; a pattern that is a
// collective at one process count and not at another is not a collective.
#pragma once

#include <set>
#include <vector>

#include "collectivize/detect.h"

namespace cz::detect {

struct RunReport {
  Report report;                  // the run's own report (site evidence weighed)
  std::string trace, command;
  std::set<SiteUse> sitesSeen;    // every call site that carried a message in the run
};

// One report: every match of every run (the first run's first), matched
// across runs by kind and call sites, each with its verdict per run
// (Match::runs). A match is confirmed when some run confirms it and no run
// in which its call sites carried messages shows another kind, nothing, or
// the kind only partially (its post-conditions failing for some member)
// there (then it is ambiguous, Unproven kRunsDisagree); a run that confirms
// a match settles what another run left unproven (ambiguous there). Stats and warnings are
// the first run's (warnings of the others prefixed with their trace).
Report combineRuns(std::vector<RunReport> runs);

} // namespace cz::detect
