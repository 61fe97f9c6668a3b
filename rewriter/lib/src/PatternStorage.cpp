// PatternStorage.cpp: the variables that only hold the pattern's own
// state: request arrays and vectors, request counters, the storage
// allocated for them. Every use is inside a pattern statement, or frees
// or clears them. The patch drops their declarations and releases with
// the pattern, so a `MPI_Request *reqs = malloc(..)` before the messages
// and its `free(reqs)` after them do not keep the region from splitting.
#include "Planner.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// `malloc(..)`, `new T[n]`, a constructor, a constant: nothing but storage.
bool allocatesOnly(const Expr *init, ASTContext &ctx) {
  if (!init) return true;
  const Expr *e = strip(init);
  if (isa<CXXNewExpr>(e) || isa<CXXConstructExpr>(e) || isa<InitListExpr>(e)) return true;
  if (const auto *call = dyn_cast<CallExpr>(e)) {
    std::string n = calleeName(call);
    return n == "malloc" || n == "calloc";
  }
  return !e->HasSideEffects(ctx);
}

const VarDecl *varOf(const Expr *e) {
  if (const auto *d = dyn_cast_or_null<DeclRefExpr>(e ? strip(e) : nullptr)) return dyn_cast<VarDecl>(d->getDecl());
  return nullptr;
}

} // namespace

// `free(v);`, `delete[] v;`, `v.clear();`, `v.reserve(n);`.
const VarDecl *Planner::releasedVar(const Stmt *s) const {
  if (const auto *call = dyn_cast<CallExpr>(s); call && calleeName(call) == "free" && call->getNumArgs() == 1)
    return varOf(call->getArg(0));
  if (const auto *del = dyn_cast<CXXDeleteExpr>(s)) return varOf(del->getArgument());
  if (const auto *m = dyn_cast<CXXMemberCallExpr>(s)) {
    std::string name = m->getMethodDecl() ? m->getMethodDecl()->getNameAsString() : "";
    if (name == "clear" || name == "reserve" || name == "shrink_to_fit") return varOf(m->getImplicitObjectArgument());
  }
  return nullptr;
}

void Planner::findPatternStorage(RegionPlan &plan) {
  for (const VarDecl *v : plan.regionLocals) {
    if (!v->isLocalVarDecl() || !allocatesOnly(v->getInit(), src.ctx)) continue;
    bool onlyPattern = true;
    std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
      if (!s || !onlyPattern || patterns.count(s) || releasedVar(s) == v) return;
      if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == v) onlyPattern = false;
      for (const Stmt *c : s->children()) walk(c);
    };
    walk(body);
    if (onlyPattern) storage.insert(v);
  }
}

// A statement the patch drops with the pattern: a declaration of storage
// only, or its release.
bool Planner::isStorageStatement(const Stmt *s) const {
  if (const VarDecl *v = releasedVar(s)) return storage.count(v) > 0;
  const auto *ds = dyn_cast<DeclStmt>(s);
  if (!ds) return false;
  for (const Decl *d : ds->decls()) {
    const auto *v = dyn_cast<VarDecl>(d);
    if (!v || !storage.count(v)) return false;
  }
  return true;
}

// Bytes [b, e) without the lines of the dropped statements among kids.
std::string Planner::textWithout(unsigned b, unsigned e, const std::vector<const Stmt *> &kids) const {
  std::vector<std::pair<unsigned, unsigned>> cuts;
  for (const Stmt *k : kids) {
    unsigned kb = src.offset(k->getBeginLoc()), ke = src.endOffset(k);
    if (kb < b || ke > e || (!isStorageStatement(k) && !req.collectiveSteps.count(k))) continue;
    // The whole line when the statement is alone on it.
    unsigned ls = src.lineStart(kb);
    if (src.between(ls, kb).find_first_not_of(" \t") == std::string::npos) kb = ls;
    size_t eol = src.buffer.find('\n', ke);
    if (eol != llvm::StringRef::npos && src.between(ke, unsigned(eol)).find_first_not_of(" \t") == std::string::npos)
      ke = unsigned(eol) + 1;
    cuts.push_back({kb, ke});
  }
  if (cuts.empty()) return text(b, e);
  // Kept pieces joined, then trimmed and re-indented as one text.
  std::string kept, indent;
  unsigned at = b;
  cuts.push_back({e, e});
  for (auto [cb, ce] : cuts) {
    std::string piece = src.between(at, cb);
    size_t first = piece.find_first_not_of(" \t\r\n");
    if (indent.empty() && first != std::string::npos) indent = src.lineIndent(at + unsigned(first));
    kept += piece;
    at = ce;
  }
  return rebase(kept, indent);
}

} // namespace cz::rewrite
