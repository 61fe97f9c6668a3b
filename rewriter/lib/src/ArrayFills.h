// ArrayFills.h: the contents of the count and displacement arrays a
// program fills before a v-form exchange, run on paper per rank (private
// to the rewriter library).
//
// MPI_Gatherv, MPI_Scatterv and MPI_Alltoallv need each receive's count to
// equal what its sender sends, which a point-to-point receive does not
// (it may be posted for more). The trace records what arrived, not what
// was posted; the source shows it when the arrays are filled by plain
// statements of the rank and the size (C a local array, or a local
// pointer to memory the function mallocs): `C[0] = e;` and counted loops
// `for (j = a; j < b; j++) C[j] = e, D[j] = f;` at the function's top
// level, before the exchange, with no other write to the array anywhere
// in the function (no `&C[i]` or `C` handed to a call but free). Values
// are evaluated as RingEvaluator evaluates a ring's indices, for given P
// and rank; anything else (a parameter, a value received, a condition)
// is not evaluated, and the caller does not propose.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "RingEvaluator.h"

namespace cz::rewrite {

class ArrayFills {
public:
  // inner: a statement of the function; comm: the communicator's text
  // (its MPI_Comm_rank/size give the rank and the size); before: the
  // source offset the fills must come before (the region's start).
  ArrayFills(const SourceText &src, const clang::Stmt *inner, const std::string &comm, unsigned before);

  // Runs the fills of every array e reads at rank me of p and evaluates
  // e there; false when some value is not evaluated (whyNot says why).
  bool value(const clang::Expr *e, long p, long me, long &out);
  // array[index] at rank me of p, after its fills.
  bool element(const clang::VarDecl *array, long index, long p, long me, long &out);
  std::string whyNot;

private:
  struct Fill {
    const clang::Stmt *stmt;
    CountedLoop loop; // counter null: a plain statement
    std::vector<const clang::BinaryOperator *> stores;
  };
  const SourceText &src;
  const clang::Stmt *body;
  unsigned before;
  RingEvaluator ev;
  std::map<const clang::VarDecl *, std::vector<Fill>> fills; // per array, source order; filled on demand
  std::set<const clang::VarDecl *> refused;
  std::map<const clang::VarDecl *, std::map<long, long>> memory; // this rank's elements

  bool eval(const clang::Expr *e, long &out, int depth);
  bool runFills(const clang::Expr *e, const clang::VarDecl *array, long p, long me);
  bool learn(const clang::VarDecl *array);
  bool store(const clang::BinaryOperator *b, int depth);
};

// The review line of a v-form call (MPI_Gatherv, ...) whose receive
// counts are not shown equal to the sent ones, why saying what stopped it.
std::string unshownCounts(const std::string &call, const std::string &why);

// The array of `A[i]`, A a local or parameter variable; else null.
const clang::VarDecl *arrayOf(const clang::Expr *e);

} // namespace cz::rewrite
