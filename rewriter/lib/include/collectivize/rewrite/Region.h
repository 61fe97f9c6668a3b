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

#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Preprocessor.h"

namespace cz::rewrite {

// Source text and positions in the file of the region (expansion locations).
class SourceText {
public:
  // pp: to tell a macro name spelled in a #define from a macro parameter.
  SourceText(clang::ASTContext &ctx, clang::Preprocessor *pp = nullptr);
  // Token range as written; with the statement, its AST rendering is the
  // fallback when the text in a macro body names macro parameters.
  std::string of(clang::SourceRange range, const clang::Stmt *printable = nullptr) const;
  std::string of(const clang::Stmt *s) const { return of(s->getSourceRange(), s); }
  unsigned offset(clang::SourceLocation loc) const;    // in its file
  unsigned endOffset(const clang::Stmt *s) const;      // just after the last token (and its ';')
  unsigned line(clang::SourceLocation loc) const;
  std::string between(unsigned begin, unsigned end) const; // bytes of the main file
  std::string lineIndent(unsigned offset) const;
  unsigned lineStart(unsigned offset) const;
  clang::ASTContext &ctx;
  clang::Preprocessor *pp;
  clang::SourceManager &sm;
  clang::FileID file;
  llvm::StringRef buffer;
};

struct RegionPlan {
  bool ok = false;
  std::string whyNot;              // !ok: why there is no patch
  std::vector<std::string> review; // ok: what the reviewer must look at
  const clang::FunctionDecl *function = nullptr;
  unsigned begin = 0, end = 0;     // replaced bytes of the file
  std::string before, after;       // kept work around the new call
  std::vector<std::string> kept;   // one line each: what was kept and where
  std::set<const clang::VarDecl *> regionLocals;
  std::vector<const clang::Stmt *> patterns;
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
};

RegionPlan planRegion(const SourceText &src, const RegionRequest &request);

// Helpers shared with the replacement builder.
const clang::Expr *strip(const clang::Expr *e);
bool mentions(const clang::Stmt *s, const std::set<const clang::VarDecl *> &vars);
const clang::VarDecl *referencedVar(const clang::Expr *e); // `x`, `&x`, `x[i]`, `*x`: x
std::string calleeName(const clang::CallExpr *call);
// Two more spaces at the start of every line.
std::string indentLines(const std::string &text);

} // namespace cz::rewrite
