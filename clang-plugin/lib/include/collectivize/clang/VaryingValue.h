// VaryingValue.h: a send whose buffer is one scalar variable that the loop
// around the call sets anew from iteration to iteration (`rows = dest <=
// extra ? ave + 1 : ave;` before `MPI_Send(&rows, 1, MPI_INT, dest, ...)`).
// Equal messages from such a site are equal by chance of the process count
// (here N divisible by the workers), not a broadcast: the detector must not
// take them for proof of one. SITE_DATABASE.md, "value_varies".
#pragma once

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include "collectivize/clang/SiteDatabase.h"

namespace cz::clangtools {

// For a point-to-point send (not MPI_Sendrecv) whose buffer is `&x`, x a
// scalar variable, in a loop: the assignment in the innermost loop around
// the call that makes x differ between iterations: x set from the loop's
// induction variable, the call's peer variable or a variable set from them
// in the loop (follows "loop" / "peer"), or from its own value (`x += n`,
// `x++`: follows "self"). The last such assignment before the call, else
// the first after it. False (out untouched) when x is not set in the loop,
// or only from values the loop does not change (`n = total / p;`). A running value (`offset = offset + chunk`) varies whatever it adds.
bool findVaryingValue(const clang::CallExpr *call, llvm::StringRef callee,
                      llvm::ArrayRef<const clang::Stmt *> enclosing,
                      const clang::SourceManager &sm, const clang::LangOptions &lo,
                      VaryingValue &out);

} // namespace cz::clangtools
