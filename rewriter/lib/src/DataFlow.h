// DataFlow.h: what a function does with its variables, enough to tell
// whether a source expression holds at the patch point the value it held
// at every site (private to the rewriter library).
//
// A write to a variable's value is an assignment, ++/--, an initializer,
// `&v` handed to anything, or v bound to a non-const reference. A write to
// its memory is also one through it (`v[i] = ..`, `v->n = ..`, `&v[i]`).
// Flow-insensitive: a write anywhere in a byte range counts, whatever the
// path; that over-approximates, which only ever refuses an expression.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

class FunctionFlow {
public:
  // rankLike: variables to treat as the rank besides those MPI_Comm_rank
  // fills (a helper that takes the rank as a parameter). askCallers: also
  // take as the rank (the size) a parameter for which every call of the
  // function in the translation unit passes its caller's rank (size).
  FunctionFlow(const SourceText &src, const clang::FunctionDecl *function,
               const std::set<const clang::VarDecl *> &rankLike = {}, bool askCallers = true);

  // MPI_Comm_rank(c, &v) (and the rank-like variables, and the parameters
  // every caller passes its rank for) / MPI_Comm_size(c, &v) (and the
  // parameters every caller passes its size for).
  const std::set<const clang::VarDecl *> &rankVariables() const { return rankVars; }
  const std::set<const clang::VarDecl *> &sizeVariables() const { return sizeVars; }

  // The expression reads the same value at byte offset `at` as anywhere in
  // [begin, end): none of its variables is written there (their memory
  // too when it reads through them: `cfg->n`, `counts[0]`), and it has no
  // side effects. why: the first variable that changes.
  // Writes inside `before` ranges run before the patch point in the
  // patched code (kept work before the call, earlier fused calls) and do
  // not count.
  using Ranges = std::vector<std::pair<unsigned, unsigned>>;
  bool invariantIn(const clang::Expr *e, unsigned begin, unsigned end, std::string *why = nullptr,
                   const Ranges &before = {}) const;
  // The variable's own value (not its memory) is written in [begin, end).
  bool valueWrittenIn(const clang::VarDecl *v, unsigned begin, unsigned end, const Ranges &before = {}) const;
  // The variable's memory (`v[i] = ..`, `&v[i]` handed on) is written in [begin, end).
  bool memoryWrittenIn(const clang::VarDecl *v, unsigned begin, unsigned end, const Ranges &before = {}) const;
  // The values written into v's own value outside [begin, end), in source
  // order (null: not known, as for `&v` or `++v`).
  std::vector<const clang::Expr *> valuesOutside(const clang::VarDecl *v, unsigned begin, unsigned end) const;
  // Mentions a variable whose value comes from the rank (me, me + 1, a
  // value computed from them): differs between ranks.
  bool rankDependent(const clang::Expr *e) const;
  // Built from the rank, the size, constants and locals computed only
  // from those (loop counters included): the same for every input at a
  // given process count.
  bool onlyRankAndSize(const clang::Expr *e) const;
  // Rank comparisons anywhere in the function (`me == 0`, `0 == r`): the
  // side that is not the rank.
  const std::vector<const clang::Expr *> &rankComparisons() const { return comparisons; }
  // When the rank comes in as a parameter (askCallers): the callers' own
  // rank comparisons (`if (my_rank == 0) read the input; Bcast(x,
  // my_rank, p, comm)`), where a helper's fixed tree gets its root singled
  // out.
  const std::vector<const clang::Expr *> &callerRankComparisons() const { return callerComparisons; }
  // `me - X` (a rank relative to X, as rooted trees compute it) in the
  // statements or in the values of variables they read: X.
  std::vector<const clang::Expr *> relativeRankBases(const std::vector<const clang::Stmt *> &stmts) const;
  // The variable can be named at byte offset `at`: a parameter, a global,
  // or a local declared before it in a scope that holds it.
  bool inScopeAt(const clang::VarDecl *v, unsigned at) const;

private:
  struct Write {
    unsigned offset;
    const clang::Expr *value; // the value written, null when unknown (&v, ++, reference)
    bool memoryOnly;          // through the variable (v[i] = ..), not its own value
  };
  const SourceText &src;
  std::map<const clang::VarDecl *, std::vector<Write>> writes;
  std::set<const clang::VarDecl *> rankVars, sizeVars, rankDerived;
  std::vector<const clang::Expr *> comparisons, callerComparisons;
  std::map<const clang::VarDecl *, std::pair<unsigned, unsigned>> scopes; // locals: [declared, scope end)

  void collect(const clang::Stmt *body);
  void takeCallersRanks(const clang::FunctionDecl *function);
  void collectScopes(const clang::Stmt *s, unsigned scopeEnd);
  bool onlyRankAndSize(const clang::Expr *e, std::set<const clang::VarDecl *> &seen) const;
};

} // namespace cz::rewrite
