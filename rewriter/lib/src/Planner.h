// Planner.h: the region planner behind planRegion (private to the rewriter
// library). One Planner per match; its parts live in files of their own:
//   Region.cpp             run(): the steps in order
//   PatternStatements.cpp  sites -> pattern statements, completions, tree queries
//   RegionSplit.cpp        the region cut into pattern and kept work
//   PatternChecks.cpp      what the pattern does besides the messages; root candidates
//   RegionEffects.cpp      outputs of the dropped calls read later, shared completions
//   PatternStorage.cpp     request arrays/vectors/counters dropped with the pattern
#pragma once

#include <set>
#include <string>
#include <vector>

#include "collectivize/rewrite/Region.h"

#include "AstQueries.h"

namespace cz::rewrite {

class Planner {
public:
  Planner(const SourceText &src, const RegionRequest &req) : src(src), req(req) {}
  RegionPlan run();

private:
  struct Pieces {
    std::string before, after;
    std::map<int, std::string> between; // fused: work between call g and g + 1
    std::vector<std::pair<unsigned, unsigned>> beforeRanges;
    std::map<int, std::vector<std::pair<unsigned, unsigned>>> betweenRanges;
  };
  // The groups of the site calls s holds (fused matches; {0} otherwise).
  std::set<int> groupsIn(const clang::Stmt *s) const;

  const SourceText &src;
  const RegionRequest &req;
  const clang::Stmt *body = nullptr;
  std::set<const clang::Stmt *> patterns;
  std::set<const clang::VarDecl *> sizeVariables; // MPI_Comm_size(c, &v)
  std::set<const clang::Stmt *> wrapped;          // CHECK_MPI(site call) statements
  const clang::Stmt *enclosingLoop = nullptr;     // innermost loop around the region

  RegionPlan &fail(RegionPlan &plan, const std::string &why);
  std::string where(const clang::Stmt *s) const {
    return "line " + std::to_string(src.line(s->getBeginLoc()));
  }

  // PatternStatements.cpp: the tree.
  const clang::Stmt *parentOf(const clang::Stmt *s) const;
  const clang::FunctionDecl *enclosingFunction(const clang::Stmt *s) const;
  bool isAncestor(const clang::Stmt *a, const clang::Stmt *s) const;
  std::vector<const clang::Stmt *> chain(const clang::Stmt *s) const; // s .. function body
  const clang::Stmt *commonAncestor(const std::vector<const clang::Stmt *> &stmts) const;
  // PatternStatements.cpp: pattern statements.
  const clang::Stmt *statementOf(const clang::Stmt *call) const;
  bool sameMacroUse(const clang::Stmt *a, const clang::Stmt *b) const;
  void findWrapperMacro(RegionPlan &plan);
  std::set<const clang::VarDecl *> loopVariables(const clang::Stmt *loop) const;
  bool feeds(const clang::Stmt *loop, const clang::CallExpr *call) const;
  const clang::Stmt *patternOf(const clang::CallExpr *call) const;
  bool containsPattern(const clang::Stmt *s) const;
  bool containsPatternIn(const clang::Stmt *s) const { return s && containsPattern(s); }
  bool isCompletionStatement(const clang::Stmt *s) const;
  std::set<const clang::VarDecl *> outVariables(llvm::StringRef function) const;
  void addCompletions(RegionPlan &plan);

  // PatternStorage.cpp: request arrays, vectors and counters only the pattern uses.
  std::set<const clang::VarDecl *> storage;
  const clang::VarDecl *releasedVar(const clang::Stmt *s) const;
  void findPatternStorage(RegionPlan &plan);
  bool isStorageStatement(const clang::Stmt *s) const;
  std::string textWithout(unsigned b, unsigned e, const std::vector<const clang::Stmt *> &kids) const;

  // RegionSplit.cpp.
  std::string text(unsigned b, unsigned e) const;
  std::string rebase(std::string text, const std::string &indent) const;
  bool splitSequence(const std::vector<const clang::Stmt *> &kids, const clang::CompoundStmt *block,
                     Pieces &out, RegionPlan &plan);
  bool split(const clang::Stmt *s, Pieces &out, RegionPlan &plan);
  bool branchPieces(const clang::Stmt *branch, Pieces &out, RegionPlan &plan);
  bool usedOutsideRegion(const clang::VarDecl *v, const RegionPlan &plan) const;
  bool isBookkeeping(const clang::Stmt *s, const RegionPlan &plan) const;
  bool readByKeptCode(const clang::VarDecl *v, const RegionPlan &plan) const;

  // RegionEffects.cpp: what the dropped calls leave behind.
  const clang::Stmt *readOutsidePattern(const clang::VarDecl *v) const;
  std::set<const clang::VarDecl *> siteRequests() const; // incl. vectors they are pushed into
  void checkSharedCompletions(RegionPlan &plan);
  void checkOutputsReadLater(RegionPlan &plan);
  std::string keptMention(const RegionPlan &plan, const std::string &name) const;
  void checkReceivedValuesKept(RegionPlan &plan);
  void collectKeptWrites(RegionPlan &plan) const;

  // PatternChecks.cpp.
  void checkPattern(const clang::Stmt *p, RegionPlan &plan);
  void collectRootCandidates(const clang::Stmt *lca, RegionPlan &plan) const;
};

} // namespace cz::rewrite
