// RingEvaluator.cpp: see RingEvaluator.h.
#include "RingEvaluator.h"

#include "clang/AST/ASTContext.h"

#include "collectivize/rewrite/CallShapes.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "RingCombine.h"

namespace cz::rewrite {

using namespace clang;

const std::vector<long> &ringSizes() {
  static const std::vector<long> sizes = {2, 3, 4, 5, 7};
  return sizes;
}

std::string ringSizesText() {
  std::string s;
  const std::vector<long> &all = ringSizes();
  for (size_t i = 0; i < all.size(); i++)
    s += (i == 0 ? "" : i + 1 == all.size() ? " and " : ", ") + std::to_string(all[i]);
  return s;
}

bool holdsMessage(const Stmt *s) {
  bool message = false;
  forEachStmt(s, [&](const Stmt *x) {
    const auto *c = dyn_cast<CallExpr>(x);
    message = message || (c && (isPointToPoint(calleeName(c)) || isCompletionCall(calleeName(c))));
  });
  return message;
}

std::string conditionalMessage(const SourceText &src, const Stmt *s) {
  const auto *e = dyn_cast<Expr>(s);
  if (!holdsMessage(s) || (e && isa<CallExpr>(strip(e)))) return "";
  std::string head = src.of(s);
  head = head.substr(0, head.find('\n'));
  while (!head.empty() && head.back() == ' ') head.pop_back();
  return "`" + head + "` (line " + std::to_string(src.line(s->getBeginLoc())) + ")";
}

const DeclRefExpr *varRef(const Expr *e, const VarDecl *v) {
  const auto *d = dyn_cast_or_null<DeclRefExpr>(strip(e));
  return d && d->getDecl() == v ? d : nullptr;
}

const Stmt *outermostStmt(const SourceText &src, const Stmt *s) {
  for (const Stmt *p = parentStmt(src, s); p; p = parentStmt(src, p)) s = p;
  return s;
}

void RingEvaluator::readFunction(const Stmt *inner, const std::string &comm) {
  forEachStmt(outermostStmt(src, inner), [&](const Stmt *x) {
    const auto *c = dyn_cast<CallExpr>(x);
    for (const char *query : {"MPI_Comm_size", "MPI_Comm_rank"})
      if (c && calleeName(c) == query && c->getNumArgs() == 2 && squeeze(src.of(c->getArg(0))) == squeeze(comm))
        if (const VarDecl *v = referencedVar(c->getArg(1))) (query[9] == 's' ? sizes : ranks).insert(v);
    if (const VarDecl *v = assignedVar(x)) writes[v]++;
    if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf)
      if (const VarDecl *v = referencedVar(u->getSubExpr())) writes[v]++;
  });
  // MPI_Comm_rank/size write them through &me: that write is the value.
  for (const VarDecl *v : ranks) writes.erase(v);
  for (const VarDecl *v : sizes) writes.erase(v);
}

const VarDecl *unchangedSize(const SourceText &src, const RingEvaluator &ev, const Stmt *inner) {
  for (const VarDecl *v : ev.sizes) {
    int writes = 0;
    forEachStmt(outermostStmt(src, inner), [&](const Stmt *x) {
      const auto *u = dyn_cast<UnaryOperator>(x);
      if (assignedVar(x) == v || (u && u->getOpcode() == UO_AddrOf && referencedVar(u->getSubExpr()) == v)) writes++;
    });
    if (writes == 1) return v;
  }
  return nullptr;
}

bool RingEvaluator::value(const Expr *e, long &out, int depth) const {
  e = strip(e);
  if (!e || depth > 12 || e->isValueDependent()) return false;
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (ranks.count(v)) return out = me, true;
    if (sizes.count(v)) return out = p, true;
    if (auto it = bound.find(v); it != bound.end()) return out = it->second, true;
  }
  Expr::EvalResult k;
  if (e->EvaluateAsInt(k, src.ctx)) return out = k.Val.getInt().getExtValue(), true;
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || !v->hasLocalStorage() || isa<ParmVarDecl>(v) || !v->getInit() || writes.count(v)) return false;
    return value(v->getInit(), out, depth + 1);
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && (u->getOpcode() == UO_Minus || u->getOpcode() == UO_LNot)) {
    if (!value(u->getSubExpr(), out, depth + 1)) return false;
    return out = u->getOpcode() == UO_Minus ? -out : !out, true;
  }
  if (const auto *c = dyn_cast<ConditionalOperator>(e)) {
    long cond = 0;
    return value(c->getCond(), cond, depth + 1) && value(cond ? c->getTrueExpr() : c->getFalseExpr(), out, depth + 1);
  }
  const auto *b = dyn_cast<BinaryOperator>(e);
  long l = 0, r = 0;
  if (!b || !value(b->getLHS(), l, depth + 1) || !value(b->getRHS(), r, depth + 1)) return false;
  return integerArithmetic(b->getOpcode(), l, r, out);
}

bool countedLoop(const Stmt *s, CountedLoop &out) {
  const auto *f = dyn_cast<ForStmt>(s);
  if (!f || !f->getInit() || !f->getCond() || !f->getInc()) return false;
  if (const auto *d = dyn_cast<DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
    out.counter = dyn_cast<VarDecl>(d->getSingleDecl());
    out.start = out.counter ? out.counter->getInit() : nullptr;
  } else if (const auto *a = dyn_cast<BinaryOperator>(f->getInit()); a && a->getOpcode() == BO_Assign) {
    out.counter = assignedVar(a), out.start = a->getRHS();
  }
  const auto *cond = dyn_cast<BinaryOperator>(strip(f->getCond()));
  const auto *inc = dyn_cast<UnaryOperator>(f->getInc());
  if (!out.counter || !out.start || !cond || (cond->getOpcode() != BO_LT && cond->getOpcode() != BO_LE) ||
      !varRef(cond->getLHS(), out.counter) || !inc || !inc->isIncrementOp() || !varRef(inc->getSubExpr(), out.counter))
    return false;
  out.bound = cond->getRHS();
  out.inclusive = cond->getOpcode() == BO_LE;
  bool jumps = false;
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    jumps = jumps || isa<BreakStmt>(x) || isa<ContinueStmt>(x) || isa<ReturnStmt>(x) || isa<GotoStmt>(x) ||
            assignedVar(x) == out.counter;
    if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf && referencedVar(u) == out.counter)
      jumps = true;
  });
  return !jumps;
}

bool loopRange(const RingEvaluator &ev, const CountedLoop &loop, long &first, long &last) {
  if (!ev.value(loop.start, first) || !ev.value(loop.bound, last)) return false;
  if (loop.inclusive) last++;
  return true;
}

} // namespace cz::rewrite
