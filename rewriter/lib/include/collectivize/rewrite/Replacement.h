// Replacement.h: the collective call that replaces a region, with its
// arguments taken from the sites' source text and the detector's facts.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/Expr.h"

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Region.h"

namespace cz::rewrite {

enum class Target { Mpi, Runtime };

struct SiteCall {
  const clang::CallExpr *call = nullptr;
  std::string callee;
  bool send = true; // the role the site played in the match
};

// What the call leaves behind, for `collectivize verify`'s probe at the
// region's end: the collective's output buffer as source expressions taken
// from the call's own arguments (patches.json "effect", PATCH_FORMAT.md).
struct CallEffect {
  bool barrier = false;    // no buffer: only the calls are counted
  std::string buffer, count, datatype, comm;
  std::string root;        // "" : every rank holds the result
  bool perRankBlocks = false; // count elements per rank of comm
};

struct CallPlan {
  bool ok = false;
  std::string whyNot;
  std::vector<std::string> review; // arguments the source did not pin down
  std::vector<std::string> notes;  // how arguments were chosen
  std::string code;                // the statement(s), unindented, without trailing newline
  bool usesRuntime = false;        // needs #include "collectivize.h"
  bool hasEffect = false;          // else effectWhyNot says why
  CallEffect effect;
  std::string effectWhyNot;
  // No call (ok false), but one to write by hand: its placeholders
  // (`<displs>`) are explained in notes.
  std::string suggestion;
};

// group: which of fused matches this call is (RegionRequest::group), for
// what runs before it.
CallPlan buildCall(const SourceText &src, const RegionPlan &region, const DetectedMatch &match,
                   const std::vector<SiteCall> &sites, Target target, int group = 0);

// The variables a reduction's sends accumulate into (`&sum` -> sum): the
// combine step writing them is part of the collective.
std::set<const clang::VarDecl *> reductionAccumulators(const std::vector<SiteCall> &sites);

} // namespace cz::rewrite
