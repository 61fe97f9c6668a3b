// DeadLocals.cpp: see DeadLocals.h.
#include "DeadLocals.h"

#include <cctype>
#include <map>

#include "clang/AST/Decl.h"
#include "clang/AST/ParentMapContext.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

namespace {

bool namesWord(const std::string &text, const std::string &name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
    if ((at == 0 || !word(text[at - 1])) && (at + name.size() >= text.size() || !word(text[at + name.size()])))
      return true;
  return false;
}

const FunctionDecl *functionOf(ASTContext &ctx, const Stmt *s) {
  DynTypedNodeList parents = ctx.getParents(*s);
  while (!parents.empty()) {
    if (const auto *f = parents[0].get<FunctionDecl>()) return f;
    if (const auto *st = parents[0].get<Stmt>()) parents = ctx.getParents(*st);
    else if (const auto *d = parents[0].get<Decl>()) parents = ctx.getParents(*d);
    else break;
  }
  return nullptr;
}

bool plainType(QualType t) {
  while (const ArrayType *a = t->getAsArrayTypeUnsafe()) t = a->getElementType();
  return t->isScalarType();
}

} // namespace

std::vector<std::pair<unsigned, unsigned>> deadDeclarations(ASTContext &ctx, const SourceText &src,
                                                            const Stmt *inside, unsigned begin,
                                                            unsigned end, const std::string &replacement) {
  std::vector<std::pair<unsigned, unsigned>> out;
  const FunctionDecl *f = inside ? functionOf(ctx, inside) : nullptr;
  if (!f || !f->getBody()) return out;
  // Every use of every local, by offset.
  std::map<const VarDecl *, std::vector<unsigned>> uses;
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl()))
        uses[v].push_back(src.offset(d->getBeginLoc()));
  });
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    const auto *ds = dyn_cast<DeclStmt>(x);
    if (!ds || ds->getBeginLoc().isMacroID() || ds->getEndLoc().isMacroID()) return;
    unsigned from = src.offset(ds->getBeginLoc()), to = src.endOffset(ds);
    if (to <= from || (from >= begin && from < end)) return; // inside the replaced code: gone with it
    for (const Decl *d : ds->decls()) {
      const auto *v = dyn_cast<VarDecl>(d);
      if (!v || !v->isLocalVarDecl() || v->isStaticLocal() || !plainType(v->getType())) return;
      if (v->getInit() && v->getInit()->HasSideEffects(ctx)) return;
      auto it = uses.find(v);
      if (it == uses.end() || namesWord(replacement, v->getNameAsString())) return;
      for (unsigned at : it->second)
        if (at < begin || at >= end) return;
    }
    // Alone on its lines: from the line's start (only blanks before) to
    // the end of its last line (only blanks after).
    llvm::StringRef text = src.buffer;
    unsigned lineStart = from;
    while (lineStart > 0 && (text[lineStart - 1] == ' ' || text[lineStart - 1] == '\t')) lineStart--;
    if (lineStart > 0 && text[lineStart - 1] != '\n') return;
    unsigned lineEnd = to;
    while (lineEnd < text.size() && (text[lineEnd] == ' ' || text[lineEnd] == '\t')) lineEnd++;
    if (lineEnd < text.size() && text[lineEnd] != '\n') return;
    if (lineEnd < text.size()) lineEnd++;
    out.push_back({lineStart, lineEnd});
  });
  return out;
}

} // namespace cz::rewrite
