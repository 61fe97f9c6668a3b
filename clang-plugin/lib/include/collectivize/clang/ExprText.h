// ExprText.h: small questions about an expression that several site
// analyses ask (StagingCopy, PeerClass, PeerIndexedBuffer, VaryingValue):
// its text as written, the variable it names, a for loop's variable.
#pragma once

#include <string>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"

namespace cz::clangtools {

// The expression's text as written in the file (a macro use as used),
// else Clang's printing of it.
std::string exprText(const clang::Expr *e, const clang::SourceManager &sm,
                     const clang::LangOptions &lo);

// The variable `e` names, after parentheses and implicit casts; null when
// it is anything else.
const clang::VarDecl *namedVariable(const clang::Expr *e);

// The variable a for loop's init declares or assigns (`int i = 0`, `i =
// 0`); null for any other init.
const clang::VarDecl *forLoopVariable(const clang::ForStmt *f);

} // namespace cz::clangtools
