// DataFlow.cpp: the writes of a function's variables, and what follows
// from them (see DataFlow.h).
#include "DataFlow.h"

#include <functional>
#include <set>

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

namespace {

const VarDecl *varOf(const Expr *e) {
  if (const auto *d = dyn_cast_or_null<DeclRefExpr>(strip(e))) return dyn_cast<VarDecl>(d->getDecl());
  return nullptr;
}

// Reads memory through a variable (`v[i]`, `*v`, `v->n`, `v.n`).
bool readsMemory(const Expr *e) {
  bool found = false;
  forEachStmt(e, [&](const Stmt *x) {
    if (isa<ArraySubscriptExpr>(x) || isa<MemberExpr>(x)) found = true;
    if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_Deref) found = true;
  });
  return found;
}

bool hasCall(const Expr *e) {
  bool found = false;
  forEachStmt(e, [&](const Stmt *x) { found = found || isa<CallExpr>(x); });
  return found;
}

} // namespace

FunctionFlow::FunctionFlow(const SourceText &s, const FunctionDecl *function,
                           const std::set<const VarDecl *> &rankLike, bool askCallers)
    : src(s), rankVars(rankLike) {
  const Stmt *body = function ? function->getBody() : nullptr;
  if (!body) return;
  // The rank and size variables first: the rest is judged against them.
  forEachStmt(body, [&](const Stmt *x) {
    const auto *call = dyn_cast<CallExpr>(x);
    if (!call || call->getNumArgs() < 2) return;
    std::string name = calleeName(call);
    if (name != "MPI_Comm_rank" && name != "MPI_Comm_size") return;
    if (const auto *u = dyn_cast<UnaryOperator>(strip(call->getArg(1))); u && u->getOpcode() == UO_AddrOf)
      if (const VarDecl *v = varOf(u->getSubExpr())) (name == "MPI_Comm_rank" ? rankVars : sizeVars).insert(v);
  });
  if (askCallers && function->getNumParams()) takeCallersRanks(function);
  collect(body);
  collectScopes(body, src.endOffset(body));
  rankDerived = rankVars;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto &[v, list] : writes) {
      if (rankDerived.count(v)) continue;
      for (const Write &w : list)
        if (!w.memoryOnly && w.value && mentions(w.value, rankDerived)) {
          rankDerived.insert(v);
          grew = true;
          break;
        }
    }
  }
}

namespace {

// Every function body in the declaration context, classes and namespaces
// included.
void forEachBody(const DeclContext *dc, const std::function<void(const FunctionDecl *)> &fn) {
  for (const Decl *d : dc->decls()) {
    if (const auto *f = dyn_cast<FunctionDecl>(d); f && f->doesThisDeclarationHaveABody()) fn(f);
    if (isa<NamespaceDecl>(d) || isa<CXXRecordDecl>(d) || isa<LinkageSpecDecl>(d))
      forEachBody(cast<DeclContext>(d), fn);
  }
}

} // namespace

// Textbook helpers take the rank and the size as arguments
// (`Global_sum(my_contrib, my_rank, p, comm)`): a parameter is the rank
// (the size) when the translation unit calls the function at least once
// and every call passes a variable its caller fills with MPI_Comm_rank
// (MPI_Comm_size). One level of callers: a caller's own parameters are
// not followed further. Calls from other files are not seen, nor is the
// communicator the caller's rank belongs to compared with the one the
// helper is given; the one rule that builds on this (a fixed tree's root,
// Arguments.cpp) takes only a constant equal to the traced root and asks
// for a second process count.
void FunctionFlow::takeCallersRanks(const FunctionDecl *function) {
  const FunctionDecl *self = function->getCanonicalDecl();
  const unsigned n = function->getNumParams();
  std::vector<int> rankAt(n, 1), sizeAt(n, 1); // still possible for every call so far
  bool called = false;
  forEachBody(src.ctx.getTranslationUnitDecl(), [&](const FunctionDecl *caller) {
    std::vector<const CallExpr *> calls;
    forEachStmt(caller->getBody(), [&](const Stmt *x) {
      if (const auto *call = dyn_cast<CallExpr>(x))
        if (const FunctionDecl *f = call->getDirectCallee(); f && f->getCanonicalDecl() == self)
          calls.push_back(call);
    });
    if (calls.empty()) return;
    called = true;
    FunctionFlow flow(src, caller, {}, false);
    for (const CallExpr *call : calls)
      for (unsigned i = 0; i < n; i++) {
        const VarDecl *v = i < call->getNumArgs() ? varOf(call->getArg(i)) : nullptr;
        if (!v || !flow.rankVars.count(v)) rankAt[i] = 0;
        if (!v || !flow.sizeVars.count(v)) sizeAt[i] = 0;
      }
    for (const Expr *e : flow.comparisons) callerComparisons.push_back(e);
  });
  bool rankParameter = false;
  for (unsigned i = 0; called && i < n; i++) {
    if (rankAt[i]) rankVars.insert(function->getParamDecl(i)), rankParameter = true;
    if (sizeAt[i]) sizeVars.insert(function->getParamDecl(i));
  }
  if (!rankParameter) callerComparisons.clear();
}

void FunctionFlow::collect(const Stmt *body) {
  auto record = [&](const Expr *target, const Stmt *at, const Expr *value) {
    unsigned off = src.offset(at->getBeginLoc());
    if (const VarDecl *v = varOf(target)) writes[v].push_back({off, value, false});
    else if (const VarDecl *base = referencedVar(target)) writes[base].push_back({off, nullptr, true});
  };
  auto isRank = [&](const Expr *e) { return rankVars.count(varOf(e)) > 0; };
  forEachStmt(body, [&](const Stmt *x) {
    if (const auto *ds = dyn_cast<DeclStmt>(x)) {
      for (const Decl *d : ds->decls())
        if (const auto *v = dyn_cast<VarDecl>(d); v && v->getInit())
          writes[v].push_back({src.offset(v->getLocation()), v->getInit(), false});
    } else if (const auto *b = dyn_cast<BinaryOperator>(x)) {
      // A compound assignment's value is the whole expression (it reads v too).
      if (b->isAssignmentOp()) record(b->getLHS(), b, b->isCompoundAssignmentOp() ? b : b->getRHS());
      // `me == c`, `me != c`; and `me > 0` / `0 < me`, which single out
      // rank 0 as a tree's root does (`if (me > 0) receive from the parent`).
      auto zero = [&](const Expr *e) {
        Expr::EvalResult r;
        return !e->isValueDependent() && e->EvaluateAsInt(r, src.ctx) && r.Val.getInt() == 0;
      };
      if ((b->getOpcode() == BO_GT && isRank(b->getLHS()) && zero(b->getRHS())) ||
          (b->getOpcode() == BO_LT && isRank(b->getRHS()) && zero(b->getLHS())))
        comparisons.push_back(isRank(b->getLHS()) ? b->getRHS() : b->getLHS());
      if (b->isEqualityOp()) {
        if (isRank(b->getLHS()) && !isRank(b->getRHS())) comparisons.push_back(b->getRHS());
        if (isRank(b->getRHS()) && !isRank(b->getLHS())) comparisons.push_back(b->getLHS());
      }
    } else if (const auto *u = dyn_cast<UnaryOperator>(x)) {
      if (u->isIncrementDecrementOp()) record(u->getSubExpr(), u, u->getSubExpr());
      if (u->getOpcode() == UO_AddrOf) record(u->getSubExpr(), u, nullptr);
    } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(x)) {
      if (op->isAssignmentOp() && op->getNumArgs() == 2) record(op->getArg(0), op, op->getArg(1));
    } else if (const auto *call = dyn_cast<CallExpr>(x)) {
      // A variable bound to a non-const reference parameter can change.
      if (const FunctionDecl *f = call->getDirectCallee())
        for (unsigned i = 0; i < call->getNumArgs() && i < f->getNumParams(); i++) {
          QualType t = f->getParamDecl(i)->getType();
          if (t->isLValueReferenceType() && !t->getPointeeType().isConstQualified())
            record(call->getArg(i), call, nullptr);
        }
      if (const auto *m = dyn_cast<CXXMemberCallExpr>(call))
        if (const CXXMethodDecl *md = m->getMethodDecl(); md && !md->isConst())
          if (const VarDecl *v = referencedVar(m->getImplicitObjectArgument()))
            writes[v].push_back({src.offset(call->getBeginLoc()), nullptr, true});
    }
  });
}

void FunctionFlow::collectScopes(const Stmt *s, unsigned scopeEnd) {
  if (!s) return;
  if (const auto *ds = dyn_cast<DeclStmt>(s))
    for (const Decl *d : ds->decls())
      if (const auto *v = dyn_cast<VarDecl>(d)) scopes[v] = {src.offset(v->getLocation()), scopeEnd};
  // A block, a loop or an if scopes what it declares to itself.
  bool scoping = isa<CompoundStmt>(s) || isLoop(s) || isa<IfStmt>(s) || isa<SwitchStmt>(s);
  unsigned inner = scoping ? src.endOffset(s) : scopeEnd;
  if (const auto *fr = dyn_cast<CXXForRangeStmt>(s))
    scopes[fr->getLoopVariable()] = {src.offset(fr->getBeginLoc()), inner};
  for (const Stmt *c : s->children()) collectScopes(c, inner);
}

bool FunctionFlow::inScopeAt(const VarDecl *v, unsigned at) const {
  auto it = scopes.find(v);
  if (it == scopes.end()) return true; // a parameter or a global
  return it->second.first < at && at < it->second.second;
}

std::vector<const Expr *> FunctionFlow::relativeRankBases(const std::vector<const Stmt *> &stmts) const {
  std::vector<const Expr *> out;
  auto isRank = [&](const Expr *e) {
    const VarDecl *v = varOf(e);
    return v && rankVars.count(v) > 0;
  };
  auto rankOrRankPlus = [&](const Expr *e) {
    if (isRank(e)) return true;
    const auto *add = dyn_cast<BinaryOperator>(strip(e));
    return add && add->getOpcode() == BO_Add && (isRank(add->getLHS()) || isRank(add->getRHS()));
  };
  std::set<const VarDecl *> read;
  auto scan = [&](const Stmt *s) {
    forEachStmt(s, [&](const Stmt *x) {
      if (const auto *d = dyn_cast<DeclRefExpr>(x))
        if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) read.insert(v);
      const auto *b = dyn_cast<BinaryOperator>(x);
      // `me - root` or `(me + p) - root`: the rank itself, or the rank plus
      // something, minus a base. Not `(root + partner) - p` (a modular
      // addition wrapping around, as HPL's MModAdd): a rank minus the size
      // is never a root.
      if (b && b->getOpcode() == BO_Sub && rankOrRankPlus(b->getLHS()) &&
          !mentions(b->getRHS(), rankVars) && !mentions(b->getRHS(), sizeVars))
        out.push_back(b->getRHS());
    });
  };
  for (const Stmt *s : stmts) scan(s);
  std::set<const VarDecl *> direct = read;
  for (const VarDecl *v : direct)
    if (auto it = writes.find(v); it != writes.end())
      for (const Write &w : it->second)
        if (w.value) scan(w.value);
  return out;
}

namespace {
bool inAny(unsigned offset, const FunctionFlow::Ranges &ranges) {
  for (auto [b, e] : ranges)
    if (offset >= b && offset < e) return true;
  return false;
}
} // namespace

bool FunctionFlow::valueWrittenIn(const VarDecl *v, unsigned begin, unsigned end, const Ranges &before) const {
  auto it = writes.find(v);
  if (it == writes.end()) return false;
  for (const Write &w : it->second)
    if (!w.memoryOnly && w.offset >= begin && w.offset < end && !inAny(w.offset, before)) return true;
  return false;
}

bool FunctionFlow::memoryWrittenIn(const VarDecl *v, unsigned begin, unsigned end, const Ranges &before) const {
  auto it = writes.find(v);
  if (it == writes.end()) return false;
  for (const Write &w : it->second)
    if (w.memoryOnly && w.offset >= begin && w.offset < end && !inAny(w.offset, before)) return true;
  return false;
}

bool FunctionFlow::invariantIn(const Expr *e, unsigned begin, unsigned end, std::string *why,
                               const Ranges &before) const {
  if (e->HasSideEffects(src.ctx)) {
    if (why) *why = "it has side effects";
    return false;
  }
  bool memory = readsMemory(e);
  std::string found;
  // What `sizeof v` (alignof) names is not evaluated: its value is the
  // type's size, whatever v holds (unless a variable-length array's).
  std::set<const Stmt *> unevaluated;
  forEachStmt(e, [&](const Stmt *x) {
    const auto *u = dyn_cast<UnaryExprOrTypeTraitExpr>(x);
    if (!u || u->isArgumentType() || u->getArgumentExpr()->getType()->isVariablyModifiedType()) return;
    forEachStmt(u->getArgumentExpr(), [&](const Stmt *y) { unevaluated.insert(y); });
  });
  forEachStmt(e, [&](const Stmt *x) {
    const auto *d = dyn_cast<DeclRefExpr>(x);
    const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || !found.empty() || unevaluated.count(x)) return;
    auto it = writes.find(v);
    if (it == writes.end()) return;
    for (const Write &w : it->second)
      if ((memory || !w.memoryOnly) && w.offset >= begin && w.offset < end && !inAny(w.offset, before)) {
        found = "'" + v->getNameAsString() + "' changes at line " +
                std::to_string(src.sm.getLineNumber(src.file, w.offset));
        return;
      }
  });
  if (why) *why = found;
  return found.empty();
}

std::vector<const Expr *> FunctionFlow::valuesOutside(const VarDecl *v, unsigned begin, unsigned end) const {
  std::vector<const Expr *> out;
  auto it = writes.find(v);
  if (it != writes.end())
    for (const Write &w : it->second)
      if (!w.memoryOnly && (w.offset < begin || w.offset >= end)) out.push_back(w.value);
  return out;
}

bool FunctionFlow::rankDependent(const Expr *e) const { return mentions(e, rankDerived); }

bool FunctionFlow::onlyRankAndSize(const Expr *e) const {
  std::set<const VarDecl *> seen;
  return onlyRankAndSize(e, seen);
}

bool FunctionFlow::onlyRankAndSize(const Expr *e, std::set<const VarDecl *> &seen) const {
  if (!e || hasCall(e)) return false;
  bool ok = true;
  forEachStmt(e, [&](const Stmt *x) {
    const auto *d = dyn_cast<DeclRefExpr>(x);
    const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!ok || !v || rankVars.count(v) || sizeVars.count(v) || !seen.insert(v).second) return;
    auto it = writes.find(v);
    if (isa<ParmVarDecl>(v) || v->hasGlobalStorage() || it == writes.end()) {
      ok = false;
      return;
    }
    for (const Write &w : it->second)
      if (!w.memoryOnly && (!w.value || !onlyRankAndSize(w.value, seen))) ok = false;
  });
  return ok;
}

} // namespace cz::rewrite
