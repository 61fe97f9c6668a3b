// RingEvaluator.h: runs a ring's index arithmetic on paper (private to the
// rewriter library). A ring's neighbours, block indices and offsets are
// expressions of the rank, the size and the step; rather than proving
// them equal to a formula, the ring analyses (RingReduceScatter.cpp,
// RingAllgatherv.cpp) evaluate them for every rank at the sizes in
// ringSizes() and follow where each block goes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

// The process counts every ring is run at: small, odd and even, prime
// and not, so that an index off by one or a modulus that only works for
// powers of two shows at one of them.
const std::vector<long> &ringSizes();
// "2, 3, 4, 5 and 7", for the notes.
std::string ringSizesText();

// Integer values of the expressions a ring's indices are written in: the
// rank, the size, loop counters bound by the caller, constants, and
// locals written once (their initializer) from those.
struct RingEvaluator {
  const SourceText &src;
  std::set<const clang::VarDecl *> ranks, sizes;
  std::map<const clang::VarDecl *, int> writes; // writes besides the initializer
  std::map<const clang::VarDecl *, long> bound;  // counters, rank and size now
  long me = 0, p = 0;

  explicit RingEvaluator(const SourceText &src) : src(src) {}
  // Learns the rank and size variables (MPI_Comm_rank/size on comm) and
  // which locals are written again, from the function holding inner.
  void readFunction(const clang::Stmt *inner, const std::string &comm);
  bool value(const clang::Expr *e, long &out, int depth = 0) const;
};

// The variable MPI_Comm_size on the communicator fills and nothing else in
// the function around inner writes (or passes on by address), else null.
const clang::VarDecl *unchangedSize(const SourceText &src, const RingEvaluator &ev, const clang::Stmt *inner);

// `for (int c = c0; c < bound; c++)` (or <=) whose body neither writes c
// nor leaves early: c, its first value's and its bound's expressions.
struct CountedLoop {
  const clang::VarDecl *counter = nullptr;
  const clang::Expr *start = nullptr, *bound = nullptr;
  bool inclusive = false;
};
bool countedLoop(const clang::Stmt *s, CountedLoop &out);
// The steps [first, last) such a loop runs at the evaluator's rank and
// size; false when its bounds are no expressions it evaluates.
bool loopRange(const RingEvaluator &ev, const CountedLoop &loop, long &first, long &last);

// s holds a point-to-point or completion call.
bool holdsMessage(const clang::Stmt *s);
// A statement of a ring's loop body holding a message that is not a plain
// call statement (under an if, in a loop, ...), so not every rank may run
// it in every step, as the evaluation assumes: "`if (...)` (line N)",
// else "".
std::string conditionalMessage(const SourceText &src, const clang::Stmt *s);

// e is a reference to v (parentheses and casts aside).
const clang::DeclRefExpr *varRef(const clang::Expr *e, const clang::VarDecl *v);
// The function body around s.
const clang::Stmt *outermostStmt(const SourceText &src, const clang::Stmt *s);

} // namespace cz::rewrite
