// Arguments.h: the count and the root of the new call, chosen among source
// expressions that hold at the patch point the value they held at every
// site (private to the rewriter library).
//
// A value the trace shows never becomes text of the patch: it only checks
// an expression (a constant expression must evaluate to it). When no
// expression qualifies there is no patch, and the reason names the sites.
#pragma once

#include <string>
#include <vector>

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Region.h"

#include "DataFlow.h"

namespace cz::rewrite {

struct ArgumentContext {
  const SourceText &src;
  const RegionPlan &region;
  const DetectedMatch &match;
  const FunctionFlow &flow;
  const std::vector<MessageArgs> &sends, &recvs;
  FunctionFlow::Ranges precede; // what runs before this call in the patched code

  // Valid at the patch point and unchanged across the region; why: if not.
  bool holds(const clang::Expr *e, std::string *why = nullptr) const;
  unsigned line(const clang::Expr *e) const { return src.line(e->getBeginLoc()); }
};

struct Chosen {
  std::string text;                // "" : none found
  std::string whyNot;              // why none was found
  std::vector<std::string> notes;  // how it was chosen
  std::vector<std::string> review; // what a person must check
};

Chosen chooseCount(const ArgumentContext &c);
Chosen chooseRoot(const ArgumentContext &c);

// Whitespace removed: to compare argument texts.
std::string squeeze(const std::string &text);

} // namespace cz::rewrite
