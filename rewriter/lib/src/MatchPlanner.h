// MatchPlanner.h: one match planned on the parsed file (private to the
// rewriter library): its sites found in the AST, the region planned, the
// call built. A match whose messages share a loop with another match's
// (the length, then the data) is planned together with it: consecutive
// collectives in the order the messages went.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clang/Tooling/Tooling.h"

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Replacement.h"
#include "collectivize/rewrite/Rewrite.h"

namespace cz::rewrite {

// Where a site is in the file: the anchor position (instrumenter ids) or
// only a line (return addresses).
struct SiteRef {
  unsigned line = 0, column = 0; // column 0: any call on the line
  std::string callee;            // "" : any point-to-point call
  bool send = true;
  // The site is in the program's own wrapper of callee, this function:
  // line is where the wrapper is called (WrapperCalls.h).
  std::string wrapper;
};

// Another match whose sites are in the same file: a candidate for fusion.
struct Partner {
  const DetectedMatch *match = nullptr;
  std::vector<SiteRef> sites;
  std::string id; // its file stem, "02-bcast"
};

struct Job {
  const DetectedMatch *match = nullptr;
  std::vector<SiteRef> sites;
  std::vector<Partner> partners;
  Target target = Target::Mpi;
  PatchPlan *out = nullptr;
  bool ran = false;
};

// The frontend action that plans job.out when the file is parsed.
std::unique_ptr<clang::tooling::FrontendActionFactory> planningAction(Job &job);

} // namespace cz::rewrite
