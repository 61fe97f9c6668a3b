// StagingCopy.h: the copy that fills a send's buffer or empties a
// receive's, when that buffer is a local staging buffer: what lets the
// detector see a scatter sent through one temporary buffer, or a gather
// received into one scratch buffer, whose messages all leave from (or land
// at) one address and so show no layout of the array they come from.
#pragma once

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include "collectivize/clang/SiteDatabase.h"

namespace cz::clangtools {

// For a point-to-point send (receive) `call` whose buffer argument names a
// variable, the last copy into it before the call (the first copy out of
// it after the call) inside the innermost loop enclosing the call:
// `memcpy(tmp, all + q * n, ...)`, or `for (i ...) tmp[i] = all[q * n + i];`.
// enclosing: the statements around the call, outermost first. False (out
// untouched) when there is none, or the call is in no loop (one message
// staged once is no pattern).
bool findStagingCopy(const clang::CallExpr *call, llvm::StringRef callee,
                     llvm::ArrayRef<const clang::Stmt *> enclosing,
                     const clang::SourceManager &sm, const clang::LangOptions &lo,
                     StagingCopy &out);

} // namespace cz::clangtools
