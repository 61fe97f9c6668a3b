// PatternChecks.cpp: what a pattern statement does besides the messages
// (calls, writes, jumps) and the facts the replacement call needs from the
// region (rank comparisons naming the root).
#include "Planner.h"

#include <functional>

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include "collectivize/rewrite/CallShapes.h"

namespace cz::rewrite {

using namespace clang;

namespace {

bool isPure(const std::string &name) {
  static const char *const kPure[] = {"abs", "labs", "llabs", "fabs", "sqrt", "pow", "floor", "ceil",
                                      "log2", "min", "max", "fmin", "fmax", "printf", "fprintf"};
  for (const char *p : kPure)
    if (name == p) return name != "printf" && name != "fprintf";
  return false;
}

} // namespace

void Planner::checkPattern(const Stmt *p, RegionPlan &plan) {
  // The error handling of a wrapping macro goes with the call it wraps.
  std::function<void(const Stmt *, const std::function<void(const Stmt *)> &)> walk =
      [&](const Stmt *s, const std::function<void(const Stmt *)> &fn) {
        if (!s || wrapped.count(s) || req.collectiveSteps.count(s)) return;
        fn(s);
        for (const Stmt *c : s->children()) walk(c, fn);
      };
  walk(p, [&](const Stmt *x) {
    if (!plan.whyNot.empty()) return;
    if (isa<ReturnStmt>(x) || isa<GotoStmt>(x) || isa<CXXThrowExpr>(x)) {
      fail(plan, "the communication at " + where(x) + " can return or jump out");
      return;
    }
    if (const auto *call = dyn_cast<CallExpr>(x)) {
      if (req.siteCalls.count(call)) return;
      // Filling or reading the pattern's own request vector goes with it.
      if (const auto *m = dyn_cast<CXXMemberCallExpr>(call))
        if (storage.count(referencedVar(m->getImplicitObjectArgument()))) return;
      if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call); op && op->getNumArgs() > 0)
        if (storage.count(referencedVar(op->getArg(0)))) return;
      std::string name = calleeName(call);
      if (isCompletionCall(name) || isHarmlessMpiQuery(name)) return;
      if (std::string p2p = pointToPointCallee(call); !p2p.empty()) {
        plan.foreignCall = call;
        fail(plan, (p2p == name ? name : name + " (" + p2p + ")") + " at " + where(x) +
                       " is communication that is not part of this collective, inside its loop");
        return;
      }
      if (llvm::StringRef(name).startswith("MPI_"))
        plan.review.push_back(name + " at " + where(x) + " runs inside the pattern; the patch drops it");
      else if (!isPure(name))
        plan.review.push_back("the call " + (name.empty() ? std::string("through a pointer") : name + "()") +
                              " at " + where(x) + " runs inside the pattern; the patch drops it");
      return;
    }
    const Expr *lhs = nullptr;
    const VarDecl *v = assignedVar(x, &lhs);
    if (!lhs) return;
    if (v) {
      if (plan.regionLocals.count(v) || req.collectiveWrites.count(v)) return;
      if (usedOutsideRegion(v, plan))
        plan.review.push_back("the pattern updates '" + v->getNameAsString() + "' (" + where(x) +
                              "), which is used outside it; the patch no longer does");
      return;
    }
    const VarDecl *base = referencedVar(lhs);
    if (base && (req.collectiveWrites.count(base) || plan.regionLocals.count(base))) return;
    plan.review.push_back("the pattern writes memory at " + where(x) + " (" + src.of(lhs) +
                          "); the patch no longer does");
  });
}

void Planner::collectRootCandidates(const Stmt *lca, RegionPlan &plan) const {
  std::set<const VarDecl *> ranks(plan.rankVariables.begin(), plan.rankVariables.end());
  auto visit = [&](const Stmt *x) {
    const auto *b = dyn_cast<BinaryOperator>(x);
    if (!b || !b->isEqualityOp()) return;
    const Expr *l = strip(b->getLHS()), *r = strip(b->getRHS());
    auto isRank = [&](const Expr *e) {
      const auto *d = dyn_cast<DeclRefExpr>(e);
      return d && ranks.count(dyn_cast<VarDecl>(d->getDecl()));
    };
    if (isRank(l) && !isRank(r)) plan.rootCandidates.push_back(b->getRHS());
    if (isRank(r) && !isRank(l)) plan.rootCandidates.push_back(b->getLHS());
  };
  for (const Stmt *s : plan.slice) forEachStmt(s, visit);
  // Conditions of the ifs around the region (`if (me == root) my_bcast(..)`).
  for (const Stmt *p = parentOf(lca); p && p != body; p = parentOf(p))
    if (const auto *i = dyn_cast<IfStmt>(p)) forEachStmt(i->getCond(), visit);
}

} // namespace cz::rewrite
