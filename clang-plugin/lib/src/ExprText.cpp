// ExprText.cpp: see ExprText.h.
#include "collectivize/clang/ExprText.h"

#include "clang/AST/PrettyPrinter.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

namespace cz::clangtools {

using namespace clang;

std::string exprText(const Expr *e, const SourceManager &sm, const LangOptions &lo) {
  CharSourceRange r =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()), sm, lo);
  if (r.isValid()) {
    std::string t = Lexer::getSourceText(r, sm, lo).str();
    if (!t.empty()) return t;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  e->printPretty(os, nullptr, PrintingPolicy(lo));
  return os.str();
}

const VarDecl *namedVariable(const Expr *e) {
  if (!e) return nullptr;
  if (const auto *r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(r->getDecl());
  return nullptr;
}

const VarDecl *forLoopVariable(const ForStmt *f) {
  if (const auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit()))
    if (ds->isSingleDecl()) return dyn_cast<VarDecl>(ds->getSingleDecl());
  if (const auto *b = dyn_cast_or_null<BinaryOperator>(f->getInit()))
    if (b->isAssignmentOp()) return namedVariable(b->getLHS());
  return nullptr;
}

} // namespace cz::clangtools
