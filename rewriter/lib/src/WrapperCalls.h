// WrapperCalls.h: calls of the program's own wrappers of MPI point-to-point
// calls (`send_wrapper(buf, n, dest)` whose body is `MPI_Send(buf, n,
// MPI_BYTE, dest, 0, MPI_COMM_WORLD)`), seen from the caller: the wrapper's
// MPI call with each argument as the caller names it. A match whose sites
// have callers is patched at the callers; the wrapper stays as it is
// (other code calls it). Private to the rewriter library.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

namespace cz::rewrite {

// The one call of callee ("MPI_Send") in the body of the function call
// calls; null when the body is not in this translation unit or makes no
// such call or several (the trace does not say which one a site is).
const clang::CallExpr *wrappedCall(const clang::CallExpr *call, llvm::StringRef callee);
// How many calls of callee the body of the function call calls makes (0
// when the body is not in this translation unit).
unsigned wrappedCallCount(const clang::CallExpr *call, llvm::StringRef callee);

// An argument of that wrapped call as the caller names it: the caller's
// argument k for the wrapper's parameter k (through casts), the wrapper's
// own expression when it names nothing declared inside the wrapper
// (MPI_BYTE, MPI_COMM_WORLD, a global), an expression made for the caller
// when the wrapper computes it from its parameters (`buf + i * n` ->
// `table + (q - 1) * n`: each parameter replaced by the caller's argument,
// parenthesised unless a name or a constant), null when it cannot be
// (argumentProblem says why).
const clang::Expr *atCaller(const clang::CallExpr *call, const clang::Expr *inWrapper);
// Why atCaller gives null for inWrapper ("" when it does not): the wrapper
// computes it from its locals, in a form not rewritten, or a caller's
// argument would be evaluated other than once (it has side effects, or the
// wrapper uses that parameter twice and the argument is not a name or a
// constant).
std::string argumentProblem(const clang::CallExpr *call, const clang::Expr *inWrapper);

// The text of an expression atCaller made (null for any other): pieces of
// text, each a string or, when stmt is set, that node's source text.
struct TextPiece {
  std::string text;
  const clang::Stmt *stmt = nullptr;
};
const std::vector<TextPiece> *madeExpressionText(const clang::Stmt *s);
// Forgets the expressions made for the AST that ends (they live in it).
void forgetMadeExpressions();

// Why the caller's call cannot be replaced as if it were the wrapper's
// callee call ("" when it can): the wrapper does something besides the
// call (other statements, calls in its arguments), computes an argument
// the caller cannot name (argumentProblem), wraps a nonblocking call, or returns a value the
// caller uses.
std::string wrapperProblem(clang::ASTContext &ctx, const clang::CallExpr *call, llvm::StringRef callee,
                           bool sendSide);

// "send_wrapper (wrapper_patterns.h:10)": the wrapper call calls.
std::string wrapperName(const clang::SourceManager &sm, const clang::CallExpr *call);

} // namespace cz::rewrite
