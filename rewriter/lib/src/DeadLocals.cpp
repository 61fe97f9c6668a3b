// DeadLocals.cpp: see DeadLocals.h.
#include "DeadLocals.h"

#include <algorithm>
#include <map>
#include <set>

#include "clang/AST/Decl.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

namespace {

bool plainType(QualType t) {
  while (const ArrayType *a = t->getAsArrayTypeUnsafe()) t = a->getElementType();
  return t->isScalarType();
}

// The edits that remove the dead variables' declarations (see
// deadDeclarations); realized: the variables they remove.
std::vector<PatchPlan::DeclarationEdit> declarationEdits(const SourceText &src, const FunctionDecl *f,
                                                         unsigned begin, unsigned end,
                                                         const std::set<const VarDecl *> &dead,
                                                         std::set<const VarDecl *> &realized) {
  std::vector<PatchPlan::DeclarationEdit> out;
  llvm::StringRef text = src.buffer;
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    const auto *ds = dyn_cast<DeclStmt>(x);
    if (!ds || ds->getBeginLoc().isMacroID() || ds->getEndLoc().isMacroID()) return;
    unsigned from = src.offset(ds->getBeginLoc()), to = src.endOffset(ds);
    if (to <= from || (from >= begin && from < end)) return; // inside the replaced code: gone with it
    std::vector<const VarDecl *> vars, kept;
    std::string names;
    for (const Decl *d : ds->decls()) {
      const auto *v = dyn_cast<VarDecl>(d);
      if (!v) return;
      vars.push_back(v);
      if (dead.count(v)) names += (names.empty() ? "" : ", ") + v->getNameAsString();
      else kept.push_back(v);
    }
    if (names.empty()) return;
    // Alone on its lines: from the line's start (only blanks before) to
    // the end of its last line (only blanks after).
    unsigned lineStart = from;
    while (lineStart > 0 && (text[lineStart - 1] == ' ' || text[lineStart - 1] == '\t')) lineStart--;
    if (lineStart > 0 && text[lineStart - 1] != '\n') return;
    unsigned lineEnd = to;
    while (lineEnd < text.size() && (text[lineEnd] == ' ' || text[lineEnd] == '\t')) lineEnd++;
    if (lineEnd < text.size() && text[lineEnd] != '\n') return;
    if (lineEnd < text.size()) lineEnd++;
    PatchPlan::DeclarationEdit edit;
    edit.from = lineStart, edit.to = lineEnd;
    edit.removed = text.substr(from, to - from).str();
    edit.names = names;
    if (!kept.empty()) {
      // The statement without the dead declarators, laid out as written:
      // each after the first from the end of the one before it to its own
      // end (`, partner`), leading dead ones up to the first that stays.
      // Only when none has a `*` or `[]` of its own (the type then holds
      // for all, and a declarator is its name to its end).
      for (const VarDecl *v : vars)
        if (v->getType() != vars[0]->getType() || !v->getType()->isScalarType() || v->getType()->isPointerType() ||
            v->getLocation().isMacroID())
          return;
      struct Span { unsigned start, end; bool dead; };
      std::vector<Span> spans;
      for (const VarDecl *v : vars) {
        unsigned a = src.offset(v->getLocation());
        unsigned z = v->getInit() ? src.endOffset(v->getInit()) : a + unsigned(v->getName().size());
        while (z > a && (text[z - 1] == ';' || text[z - 1] == ' ' || text[z - 1] == '\t')) z--;
        if (z <= a || z > to || (!spans.empty() && a < spans.back().end)) return;
        spans.push_back({a, z, std::find(kept.begin(), kept.end(), v) == kept.end()});
      }
      std::vector<std::pair<unsigned, unsigned>> cuts;
      size_t firstKept = 0;
      while (spans[firstKept].dead) firstKept++;
      if (firstKept > 0) cuts.push_back({spans[0].start, spans[firstKept].start});
      for (size_t i = firstKept + 1; i < spans.size(); i++)
        if (spans[i].dead) cuts.push_back({spans[i - 1].end, spans[i].end});
      std::string rest;
      unsigned at = from;
      for (const auto &[c0, c1] : cuts) {
        rest += text.substr(at, c0 - at).str();
        at = c1;
      }
      rest += text.substr(at, to - at).str();
      edit.from = from, edit.to = to, edit.text = rest;
    }
    out.push_back(edit);
    for (const VarDecl *v : vars)
      if (dead.count(v)) realized.insert(v);
  });
  return out;
}

} // namespace

std::vector<PatchPlan::DeclarationEdit> deadDeclarations(ASTContext &ctx, const SourceText &src,
                                                         const Stmt *inside, unsigned begin,
                                                         unsigned end, const std::string &replacement) {
  std::vector<PatchPlan::DeclarationEdit> out;
  const FunctionDecl *f = inside ? enclosingFunction(ctx, inside) : nullptr;
  if (!f || !f->getBody()) return out;
  // Every use of every local, by offset.
  std::map<const VarDecl *, std::vector<unsigned>> uses;
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl()))
        uses[v].push_back(src.offset(d->getBeginLoc()));
  });
  // A variable is dead when every use is in the replaced bytes or in the
  // initializer of a variable removed too (`int participate = bitmask <<
  // 1;` left `bitmask` without a use once it went). Found as a fixpoint:
  // the variables whose uses are all in the region or in the removed ones'
  // initializers, grown until nothing changes; then shrunk to the ones
  // whose declarations can really be removed (a declaration not alone on
  // its lines stays, with its initializer's uses), until that is stable.
  auto possible = [&](const VarDecl *v) {
    if (!v->isLocalVarDecl() || v->isStaticLocal() || !plainType(v->getType())) return false;
    if (v->getInit() && v->getInit()->HasSideEffects(ctx)) return false;
    return uses.count(v) && findWord(replacement, v->getNameAsString()) == std::string::npos;
  };
  auto initSpan = [&](const VarDecl *v) {
    const Expr *init = v->getInit();
    return init ? std::make_pair(src.offset(init->getBeginLoc()), src.endOffset(init)) : std::make_pair(0u, 0u);
  };
  auto deadGiven = [&](const VarDecl *v, const std::set<const VarDecl *> &removed) {
    for (unsigned at : uses.at(v)) {
      if (at >= begin && at < end) continue;
      bool inRemovedInit = false;
      for (const VarDecl *w : removed) {
        auto [a, z] = initSpan(w);
        inRemovedInit = inRemovedInit || (w != v && at >= a && at < z);
      }
      if (!inRemovedInit) return false;
    }
    return true;
  };
  std::set<const VarDecl *> dead;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto &[v, list] : uses)
      if (!dead.count(v) && possible(v) && deadGiven(v, dead)) dead.insert(v), grew = true;
  }
  for (;;) {
    std::set<const VarDecl *> realized;
    out = declarationEdits(src, f, begin, end, dead, realized);
    // Keep only the removed ones, and of those the ones still dead given
    // only the others removed.
    std::set<const VarDecl *> next;
    for (const VarDecl *v : realized)
      if (deadGiven(v, realized)) next.insert(v);
    if (next == dead) break;
    dead = std::move(next);
  }
  return out;
}

} // namespace cz::rewrite
