// Region.h: the smallest piece of a function that holds all call sites of
// one manual collective, what else it does, and what must be kept.
//
// Each site's call grows to its "pattern statement": the statement holding
// the call, widened through the enclosing loops whose loop variables feed the
// call's arguments (`for (q = 0; q < p; q++) MPI_Send(.., q, ..)` is part of
// the pattern; the time-step loop around it is not). The region is the
// lowest common ancestor of the pattern statements (a slice of a block when
// that ancestor is a block). Statements of the region that are not pattern
// statements are work the program still needs (the root filling the buffer,
// copying its own block): they are kept, before or after the new call, under
// the same conditions. Work inside a pattern statement would be dropped:
// that makes the patch one to review, and communication that is not part of
// the collective, or a return from inside it, means no patch.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/Expr.h"

#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct RegionPlan {
  bool ok = false;
  std::string whyNot;              // !ok: why there is no patch
  // ok, but no patch either: a refusal said only once every call is built
  // (a call's own refusal names the cause more exactly).
  std::string lateWhyNot;
  // !ok because of this point-to-point call, which is not a site (another
  // match's, when two collectives share a loop).
  const clang::CallExpr *foreignCall = nullptr;
  std::vector<std::string> review; // ok: what the reviewer must look at
  const clang::FunctionDecl *function = nullptr;
  unsigned begin = 0, end = 0;     // replaced bytes of the file
  std::string before, after;       // kept work around the new call(s)
  // Fused collectives (several matches in one loop): work kept between
  // call g and call g + 1, in the order the messages went.
  std::map<int, std::string> between;
  // Byte ranges of the file whose statements run before the call of group
  // g in the patched code (kept work before it, work between earlier
  // calls, earlier groups' site calls): writes there do not change what
  // an argument of call g means.
  std::map<int, std::vector<std::pair<unsigned, unsigned>>> precede;
  std::vector<std::string> kept;   // one line each: what was kept and where
  std::vector<const clang::Stmt *> slice; // the region's statements
  std::set<const clang::VarDecl *> regionLocals;
  // Variables the kept work writes into (`all[root * n + i] = ..`, memcpy).
  std::set<const clang::VarDecl *> keptWrites;
  std::vector<const clang::Stmt *> patterns;
  // RegionRequest::ownBlockCopies the region dropped (not kept).
  std::vector<const clang::Stmt *> droppedCopies;
  // Rank comparisons in the region and the sites' context (`me == root`):
  // the side that is not the rank variable, as root candidates.
  std::vector<const clang::Expr *> rootCandidates;
  std::vector<const clang::VarDecl *> rankVariables; // MPI_Comm_rank(c, &v) in the function
  // Every site call is the argument of the same function-like macro
  // (CHECK_MPI(MPI_Send(...))): the new call gets it too.
  std::string wrapperMacro;
};

struct RegionRequest {
  std::vector<const clang::CallExpr *> calls; // the match's sites, one call each
  std::set<const clang::CallExpr *> siteCalls;
  // Variables the collective itself updates (a reduction's accumulator):
  // writes to them inside the pattern are not "other work".
  std::set<const clang::VarDecl *> collectiveWrites;
  // Statements the collective itself does (a ring's forward `memcpy(pass,
  // in, ..)`): no work of the program's own inside the pattern.
  std::set<const clang::Stmt *> collectiveSteps;
  // Copies of a rank's own block that the collective call makes too (an
  // alltoallv's): dropped when they run unconditionally in the region
  // (its top level), kept otherwise.
  std::set<const clang::Stmt *> ownBlockCopies;
  // A barrier: what the messages carry must be read nowhere else (the
  // collective call would not deliver it).
  bool messagesCarryNoData = false;
  // A reduction: the call leaves its result in collectiveWrites only, so
  // data a receive put anywhere else must be read nowhere else.
  bool receivesOnlyCombined = false;
  // Fused matches: the group (0..groups-1, in message order) of each site
  // call; a call not listed is in group 0.
  std::map<const clang::CallExpr *, int> group;
  int groups = 1;
};

RegionPlan planRegion(const SourceText &src, const RegionRequest &request);

} // namespace cz::rewrite
