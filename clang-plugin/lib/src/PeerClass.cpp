// PeerClass.cpp: see PeerClass.h.
#include "collectivize/clang/PeerClass.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "collectivize/clang/ExprText.h"

namespace cz::clangtools {

using namespace clang;

std::vector<unsigned> peerArguments(llvm::StringRef callee) {
  if (callee == "MPI_Sendrecv") return {3, 8};
  if (callee == "MPI_Sendrecv_replace") return {3, 5};
  if (callee == "MPI_Probe" || callee == "MPI_Iprobe") return {0};
  if (callee.startswith("MPI_") &&
      (callee.contains("send") || callee.contains("Send") || callee.contains("recv") ||
       callee.contains("Recv")))
    return {3};
  return {};
}

namespace {

// Variables a for loop steps: declared or assigned in its init, changed in
// its increment.
void inductionVariables(const ForStmt *f, llvm::SmallPtrSetImpl<const VarDecl *> &out) {
  if (const auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit()))
    for (const Decl *d : ds->decls())
      if (const auto *v = dyn_cast<VarDecl>(d)) out.insert(v);
  auto changed = [&](const Stmt *s) {
    if (!s) return;
    if (const auto *u = dyn_cast<UnaryOperator>(s)) {
      if (const VarDecl *v = namedVariable(u->getSubExpr())) out.insert(v);
    } else if (const auto *b = dyn_cast<BinaryOperator>(s)) {
      if (b->isAssignmentOp() || b->isCompoundAssignmentOp())
        if (const VarDecl *v = namedVariable(b->getLHS())) out.insert(v);
    }
  };
  changed(f->getInit());
  changed(f->getInc());
  if (const auto *comma = dyn_cast_or_null<BinaryOperator>(f->getInc()))
    if (comma->getOpcode() == BO_Comma) changed(comma->getLHS()), changed(comma->getRHS());
}

struct Seen {
  bool table = false, call = false, loop = false, variable = false;
};

// Assignments `v = expr` inside s (the value a variable gets in a loop).
void assignmentsTo(const Stmt *s, const VarDecl *v, std::vector<const Expr *> &out) {
  if (!s) return;
  if (const auto *b = dyn_cast<BinaryOperator>(s))
    if (b->isAssignmentOp() && namedVariable(b->getLHS()) == v) out.push_back(b->getRHS());
  for (const Stmt *c : s->children()) assignmentsTo(c, v, out);
}

class Walker {
public:
  Walker(const llvm::SmallPtrSetImpl<const VarDecl *> &induction, const Stmt *scope)
      : induction_(induction), scope_(scope) {}

  void walk(const Stmt *s, int depth, Seen &seen) {
    if (!s) return;
    // A C array, a std::vector's operator[] (also in templates, where it
    // may still be unresolved), a field: read from a table.
    if (isa<ArraySubscriptExpr>(s) || isa<MemberExpr>(s) || isa<CXXDependentScopeMemberExpr>(s))
      seen.table = true;
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s);
        op && (op->getOperator() == OO_Subscript || op->getOperator() == OO_Star ||
               op->getOperator() == OO_Arrow))
      seen.table = true;
    if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_Deref) seen.table = true;
    if (isa<CallExpr>(s) && !isa<CXXOperatorCallExpr>(s)) seen.call = true;
    if (const auto *r = dyn_cast<DeclRefExpr>(s))
      if (const auto *v = dyn_cast<VarDecl>(r->getDecl())) variable(v, depth, seen);
    for (const Stmt *c : s->children()) walk(c, depth, seen);
  }

private:
  // A local variable is followed to the values it gets (its initializer,
  // assignments in the outermost loop around the call), a few levels deep:
  // `int to = (me + s) % p;` in a loop over s is computed from the loop.
  void variable(const VarDecl *v, int depth, Seen &seen) {
    if (induction_.count(v)) {
      seen.loop = true;
      return;
    }
    if (v->getType().isConstQualified() && v->hasInit()) return; // a named constant
    seen.variable = true;
    if (depth >= 3 || !v->isLocalVarDecl() || !followed_.insert(v).second) return;
    std::vector<const Expr *> values;
    if (v->getInit()) values.push_back(v->getInit());
    assignmentsTo(scope_, v, values);
    for (const Expr *e : values) walk(e, depth + 1, seen);
  }

  const llvm::SmallPtrSetImpl<const VarDecl *> &induction_;
  const Stmt *scope_;
  llvm::SmallPtrSet<const VarDecl *, 8> followed_;
};

} // namespace

const char *classifyPeer(const Expr *peer, llvm::StringRef spelled,
                         llvm::ArrayRef<const Stmt *> enclosing) {
  if (spelled.trim() == "MPI_ANY_SOURCE") return "any";
  llvm::SmallPtrSet<const VarDecl *, 8> induction;
  for (const Stmt *s : enclosing)
    if (const auto *f = dyn_cast<ForStmt>(s)) inductionVariables(f, induction);
  const Stmt *outerLoop = nullptr;
  for (const Stmt *s : enclosing)
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) {
      outerLoop = s;
      break;
    }
  Seen seen;
  Walker(induction, outerLoop).walk(peer, 0, seen);
  if (seen.table) return "table";
  if (seen.call) return "call";
  if (seen.loop) return "loop";
  // The caller decides when the peer is a parameter as such (`to`, `root`);
  // `(me + 1) % p` of parameters me and p is computed like any rank.
  if (const VarDecl *v = namedVariable(peer); v && isa<ParmVarDecl>(v)) return "parameter";
  if (seen.variable) return "rank";
  return "constant";
}

} // namespace cz::clangtools
