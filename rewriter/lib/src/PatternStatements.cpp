// PatternStatements.cpp: from a site's call to its pattern statement (the
// statement holding it, widened through the loops that drive its peer,
// count or offset), the completions of its requests, and the tree queries
// (parents, common ancestor) the region is chosen with.
#include "Planner.h"

#include <algorithm>

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include "collectivize/rewrite/CallShapes.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// The offset parts of a buffer argument (`all + q * n` -> q * n,
// `&a[i]` -> i, a pointer declared from such an expression likewise):
// the data itself (`&sum`) does not make a loop part of the pattern.
std::vector<const Expr *> offsetsOf(const Expr *buffer) {
  std::vector<const Expr *> out;
  const Expr *e = strip(buffer);
  for (int depth = 0; e && depth < 8; depth++) {
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp()) {
      bool leftPointer = b->getLHS()->getType()->isPointerType();
      out.push_back(leftPointer ? b->getRHS() : b->getLHS());
      e = strip(leftPointer ? b->getLHS() : b->getRHS());
    } else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      e = strip(u->getSubExpr());
    } else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
      out.push_back(a->getIdx());
      e = strip(a->getBase());
    } else if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
      const auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (!v || !v->getType()->isPointerType() || !v->getInit() || !v->isLocalVarDecl()) break;
      e = strip(v->getInit());
    } else {
      break;
    }
  }
  return out;
}

} // namespace

const Stmt *Planner::parentOf(const Stmt *s) const {
  DynTypedNodeList ps = src.ctx.getParents(*s);
  while (!ps.empty()) {
    if (const Stmt *p = ps[0].get<Stmt>()) return p;
    if (const Decl *d = ps[0].get<Decl>()) {
      if (isa<FunctionDecl>(d)) return nullptr;
      ps = src.ctx.getParents(*d);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

const FunctionDecl *Planner::enclosingFunction(const Stmt *s) const {
  return cz::rewrite::enclosingFunction(src.ctx, s);
}

bool Planner::isAncestor(const Stmt *a, const Stmt *s) const {
  for (const Stmt *p = parentOf(s); p; p = parentOf(p))
    if (p == a) return true;
  return false;
}

std::vector<const Stmt *> Planner::chain(const Stmt *s) const { // s .. function body
  std::vector<const Stmt *> out{s};
  while (out.back() != body) {
    const Stmt *p = parentOf(out.back());
    if (!p) break;
    out.push_back(p);
  }
  return out;
}

const Stmt *Planner::commonAncestor(const std::vector<const Stmt *> &stmts) const {
  std::vector<const Stmt *> first = chain(stmts[0]);
  for (const Stmt *candidate : first) {
    bool common = true;
    for (size_t i = 1; i < stmts.size() && common; i++) {
      std::vector<const Stmt *> c = chain(stmts[i]);
      common = std::find(c.begin(), c.end(), candidate) != c.end();
    }
    if (common) return candidate;
  }
  return nullptr;
}

// The statement a call is part of. A call in a macro argument
// (CHECK_MPI(MPI_Send(...)) expanding to do { if (...) ... } while (0))
// belongs to the statement the macro use is.
const Stmt *Planner::statementOf(const Stmt *call) const {
  const Stmt *cur = call;
  for (const Stmt *p = parentOf(cur); p; p = parentOf(cur)) {
    if (isa<Expr>(p) || isa<DeclStmt>(p) || (p != body && sameMacroUse(cur, p))) {
      cur = p;
      continue;
    }
    break;
  }
  return cur;
}

bool Planner::sameMacroUse(const Stmt *a, const Stmt *b) const {
  SourceLocation la = a->getBeginLoc(), lb = b->getBeginLoc();
  if (!la.isMacroID() || !lb.isMacroID()) return false;
  return src.sm.getExpansionRange(la).getBegin() == src.sm.getExpansionRange(lb).getBegin();
}

// Site statements that are a function-like macro around the call.
void Planner::findWrapperMacro(RegionPlan &plan) {
  std::string name;
  for (const CallExpr *c : req.calls) {
    const Stmt *st = statementOf(c);
    if (st == c || !st->getBeginLoc().isMacroID()) return;
    std::string n = Lexer::getImmediateMacroName(st->getBeginLoc(), src.sm, src.ctx.getLangOpts()).str();
    if (n.empty() || (!name.empty() && n != name)) return;
    name = n;
    wrapped.insert(st);
  }
  plan.wrapperMacro = name;
}

// The variables a loop steps through and those computed from them in it.
std::set<const VarDecl *> Planner::loopVariables(const Stmt *loop) const {
  std::set<const VarDecl *> vars;
  const Stmt *bodyStmt = nullptr;
  auto refs = [&](const Stmt *s) {
    forEachStmt(s, [&](const Stmt *x) {
      if (const auto *d = dyn_cast<DeclRefExpr>(x))
        if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) vars.insert(v);
    });
  };
  if (const auto *f = dyn_cast<ForStmt>(loop)) {
    declaredIn(f->getInit(), vars);
    refs(f->getInc());
    bodyStmt = f->getBody();
  } else if (const auto *r = dyn_cast<CXXForRangeStmt>(loop)) {
    vars.insert(r->getLoopVariable());
    bodyStmt = r->getBody();
  } else {
    const Expr *cond = isa<WhileStmt>(loop) ? cast<WhileStmt>(loop)->getCond() : cast<DoStmt>(loop)->getCond();
    bodyStmt = isa<WhileStmt>(loop) ? cast<WhileStmt>(loop)->getBody() : cast<DoStmt>(loop)->getBody();
    std::set<const VarDecl *> inCond, written;
    forEachStmt(cond, [&](const Stmt *x) {
      if (const auto *d = dyn_cast<DeclRefExpr>(x))
        if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) inCond.insert(v);
    });
    forEachStmt(bodyStmt, [&](const Stmt *x) {
      if (const VarDecl *v = assignedVar(x)) written.insert(v);
    });
    for (const VarDecl *v : inCond)
      if (written.count(v)) vars.insert(v);
  }
  // Values computed from them inside the loop (`to = (me + s) % p`).
  for (int round = 0; round < 4; round++) {
    forEachStmt(bodyStmt, [&](const Stmt *x) {
      if (const auto *ds = dyn_cast<DeclStmt>(x)) {
        for (const Decl *d : ds->decls())
          if (const auto *v = dyn_cast<VarDecl>(d))
            if (v->getInit() && mentions(v->getInit(), vars)) vars.insert(v);
      } else if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp()) {
        if (const VarDecl *v = assignedVar(b); v && mentions(b->getRHS(), vars)) vars.insert(v);
      }
    });
  }
  return vars;
}

// A loop is part of the pattern when its variables feed the call's
// arguments, or when it counts up to the communicator's size (P-1
// receives from MPI_ANY_SOURCE).
bool Planner::feeds(const Stmt *loop, const CallExpr *call) const {
  const Expr *cond = nullptr;
  if (const auto *f = dyn_cast<ForStmt>(loop)) cond = f->getCond();
  else if (const auto *w = dyn_cast<WhileStmt>(loop)) cond = w->getCond();
  else if (const auto *d = dyn_cast<DoStmt>(loop)) cond = d->getCond();
  if (cond && mentions(cond, sizeVariables)) return true;
  std::set<const VarDecl *> vars = loopVariables(loop);
  std::string name = pointToPointCallee(call);
  for (bool sendSide : {true, false}) {
    MessageArgs m = messageArgs(call, name, sendSide);
    if (!m.valid()) continue;
    if ((m.peer && mentions(m.peer, vars)) || mentions(m.count, vars)) return true;
    for (const Expr *off : offsetsOf(m.buffer))
      if (mentions(off, vars)) return true;
  }
  return false;
}

const Stmt *Planner::patternOf(const CallExpr *call) const {
  const Stmt *top = statementOf(call);
  for (const Stmt *p = parentOf(top); p && p != body; p = parentOf(p)) {
    if (isLoop(p)) {
      if (!feeds(p, call)) break;
      top = p;
    }
  }
  return top;
}

bool Planner::containsPattern(const Stmt *s) const {
  bool found = false;
  forEachStmt(s, [&](const Stmt *x) { found = found || patterns.count(x); });
  return found;
}

std::set<int> Planner::groupsIn(const Stmt *s) const {
  std::set<int> out;
  forEachStmt(s, [&](const Stmt *x) {
    const auto *call = dyn_cast<CallExpr>(x);
    if (!call || !req.siteCalls.count(call)) return;
    auto it = req.group.find(call);
    out.insert(it == req.group.end() ? 0 : it->second);
  });
  return out;
}

bool Planner::isCompletionStatement(const Stmt *s) const {
  const auto *e = dyn_cast<Expr>(s);
  if (!e) return false;
  const auto *call = dyn_cast<CallExpr>(strip(e));
  return call && isCompletionCall(calleeName(call));
}

std::set<const VarDecl *> Planner::outVariables(llvm::StringRef function) const {
  std::set<const VarDecl *> out;
  forEachStmt(body, [&](const Stmt *x) {
    const auto *call = dyn_cast<CallExpr>(x);
    if (!call || calleeName(call) != function || call->getNumArgs() < 2) return;
    if (const auto *u = dyn_cast<UnaryOperator>(strip(call->getArg(1))); u && u->getOpcode() == UO_AddrOf)
      if (const VarDecl *v = referencedVar(u->getSubExpr())) out.insert(v);
  });
  return out;
}

// MPI_Wait*/MPI_Test* statements on the requests the sites started.
void Planner::addCompletions(RegionPlan &plan) {
  std::set<const VarDecl *> requests = siteRequests();
  if (requests.empty()) return;
  forEachStmt(body, [&](const Stmt *x) {
    if (!isCompletionStatement(x) || !mentions(x, requests)) return;
    const Stmt *st = statementOf(x);
    bool inside = false;
    for (const Stmt *p : patterns) inside = inside || p == st || isAncestor(p, st);
    if (!inside) {
      patterns.insert(st);
      plan.patterns.push_back(st);
    }
  });
}

} // namespace cz::rewrite
