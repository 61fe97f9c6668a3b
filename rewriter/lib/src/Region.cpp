// Region.cpp: planRegion: the pattern statements of a match's sites, their
// common region, and the split of the region into the pattern and kept work
// (Planner.h lists the parts; each lives in a file of its own).
#include "Planner.h"

#include <algorithm>

#include "clang/AST/Decl.h"

namespace cz::rewrite {

using namespace clang;

RegionPlan Planner::run() {
  RegionPlan plan;
  if (req.calls.empty()) return fail(plan, "no call site of the match was found in the source");
  // Every site in one function.
  for (const CallExpr *c : req.calls) {
    const FunctionDecl *f = enclosingFunction(c);
    if (!f) return fail(plan, "a site is not inside a function body");
    if (plan.function && f != plan.function)
      return fail(plan, "the sites are in several functions (" + plan.function->getNameAsString() +
                            ", " + f->getNameAsString() +
                            "): a collective spread over functions is not rewritten automatically");
    plan.function = f;
  }
  body = plan.function->getBody();
  for (const VarDecl *v : outVariables("MPI_Comm_rank")) plan.rankVariables.push_back(v);
  sizeVariables = outVariables("MPI_Comm_size");

  findWrapperMacro(plan);
  for (const CallExpr *c : req.calls) {
    const Stmt *p = patternOf(c);
    if (std::find(plan.patterns.begin(), plan.patterns.end(), p) == plan.patterns.end())
      plan.patterns.push_back(p);
  }
  // Nested patterns: keep the outer one.
  std::vector<const Stmt *> outer;
  for (const Stmt *p : plan.patterns) {
    bool inside = false;
    for (const Stmt *q : plan.patterns)
      if (q != p && isAncestor(q, p)) inside = true;
    if (!inside) outer.push_back(p);
  }
  plan.patterns = outer;
  patterns = std::set<const Stmt *>(outer.begin(), outer.end());
  checkSharedCompletions(plan);
  if (!plan.whyNot.empty()) return plan;
  addCompletions(plan);

  // The region: the lowest common ancestor, or a slice of a block.
  const Stmt *lca = commonAncestor(plan.patterns);
  if (!lca) return fail(plan, "the sites have no common enclosing statement");
  std::vector<const Stmt *> slice;
  if (const auto *block = dyn_cast<CompoundStmt>(lca); block && !patterns.count(lca)) {
    std::vector<const Stmt *> kids(block->body_begin(), block->body_end());
    int first = -1, last = -1;
    for (int i = 0; i < int(kids.size()); i++)
      if (containsPattern(kids[size_t(i)])) {
        if (first < 0) first = i;
        last = i;
      }
    slice.assign(kids.begin() + first, kids.begin() + last + 1);
  } else {
    slice.push_back(lca);
  }
  for (const Stmt *s : slice) declaredIn(s, plan.regionLocals);
  findPatternStorage(plan);
  plan.begin = src.offset(slice.front()->getBeginLoc());
  plan.end = src.endOffset(slice.back());
  for (const Stmt *p = parentOf(slice.front()); p && p != body && !enclosingLoop; p = parentOf(p))
    if (isLoop(p)) enclosingLoop = p;

  // Split the region into the pattern and the work around it.
  Pieces pieces;
  if (slice.size() == 1 && !patterns.count(slice.front())) {
    if (!split(slice.front(), pieces, plan)) return plan;
  } else {
    if (!splitSequence(slice, nullptr, pieces, plan)) return plan;
  }
  plan.before = pieces.before;
  plan.after = pieces.after;
  plan.between = pieces.between;
  // What runs before each call in the patched code.
  for (int g = 0; g < req.groups; g++) {
    auto &ranges = plan.precede[g];
    ranges = pieces.beforeRanges;
    for (auto &[h, r] : pieces.betweenRanges)
      if (h < g) ranges.insert(ranges.end(), r.begin(), r.end());
    for (const CallExpr *c : req.calls) {
      auto it = req.group.find(c);
      if (it != req.group.end() && it->second < g) ranges.push_back({src.offset(c->getBeginLoc()), src.endOffset(c)});
    }
  }
  for (const Stmt *p : patterns) checkPattern(p, plan);
  checkReceivedValuesKept(plan);
  if (!plan.whyNot.empty()) return plan;
  checkOutputsReadLater(plan);
  if (!plan.whyNot.empty()) return plan;
  plan.slice = slice;
  collectKeptWrites(plan);
  collectRootCandidates(lca, plan);
  plan.ok = true;
  return plan;
}

RegionPlan &Planner::fail(RegionPlan &plan, const std::string &why) {
  plan.ok = false;
  if (plan.whyNot.empty()) plan.whyNot = why;
  return plan;
}

RegionPlan planRegion(const SourceText &src, const RegionRequest &request) {
  return Planner(src, request).run();
}

} // namespace cz::rewrite
