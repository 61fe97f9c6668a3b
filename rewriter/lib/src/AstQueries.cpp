// AstQueries.cpp: small questions about statements and expressions that the
// region planner and the replacement builder both ask.
#include "AstQueries.h"

#include <cctype>

#include <climits>

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

namespace cz::rewrite {

using namespace clang;

const Expr *strip(const Expr *e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<CStyleCastExpr>(e)) {
      e = c->getSubExpr();
      continue;
    }
    if (const auto *c = dyn_cast<CXXNamedCastExpr>(e)) {
      e = c->getSubExpr();
      continue;
    }
    break;
  }
  return e;
}

void forEachStmt(const Stmt *s, const std::function<void(const Stmt *)> &fn) {
  if (!s) return;
  fn(s);
  for (const Stmt *c : s->children()) forEachStmt(c, fn);
}

void declaredIn(const Stmt *s, std::set<const VarDecl *> &out) {
  forEachStmt(s, [&](const Stmt *x) {
    if (const auto *ds = dyn_cast<DeclStmt>(x))
      for (const Decl *d : ds->decls())
        if (const auto *v = dyn_cast<VarDecl>(d)) out.insert(v);
    if (const auto *fr = dyn_cast<CXXForRangeStmt>(x)) out.insert(fr->getLoopVariable());
  });
}

bool integerArithmetic(BinaryOperatorKind op, long l, long r, long &out) {
  // A value the program's own expression would overflow is no value: the
  // caller then leaves the count or index unshown (review), never wrapped.
  switch (op) {
  case BO_Add: return !__builtin_add_overflow(l, r, &out);
  case BO_Sub: return !__builtin_sub_overflow(l, r, &out);
  case BO_Mul: return !__builtin_mul_overflow(l, r, &out);
  case BO_Div: return r != 0 && !(l == LONG_MIN && r == -1) && (out = l / r, true);
  case BO_Rem: return r != 0 && !(l == LONG_MIN && r == -1) && (out = l % r, true);
  // The bit operations a partner or a round's mask is computed with
  // (`me ^ mask`, `mask >> 1`), and the comparisons that pick a half.
  case BO_Xor: return out = l ^ r, true;
  case BO_And: return out = l & r, true;
  case BO_Or: return out = l | r, true;
  case BO_Shl: return r >= 0 && r < 62 && l >= 0 && l <= (LONG_MAX >> r) && (out = l << r, true);
  case BO_Shr: return r >= 0 && r < 62 && (out = l >> r, true);
  case BO_LT: return out = l < r, true;
  case BO_GT: return out = l > r, true;
  case BO_LE: return out = l <= r, true;
  case BO_GE: return out = l >= r, true;
  case BO_EQ: return out = l == r, true;
  case BO_NE: return out = l != r, true;
  case BO_LAnd: return out = l && r, true;
  case BO_LOr: return out = l || r, true;
  default: return false;
  }
}

bool isLoop(const Stmt *s) {
  return isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
}

// Variables an assignment, ++/-- or compound assignment writes: `x = ..` -> x.
const VarDecl *assignedVar(const Stmt *s, const Expr **lhsOut) {
  const Expr *lhs = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(s)) {
    if (b->isAssignmentOp()) lhs = b->getLHS();
  } else if (const auto *u = dyn_cast<UnaryOperator>(s)) {
    if (u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s)) {
    if (op->isAssignmentOp() && op->getNumArgs() > 0) lhs = op->getArg(0);
  }
  if (lhsOut) *lhsOut = lhs;
  if (!lhs) return nullptr;
  if (const auto *d = dyn_cast<DeclRefExpr>(strip(lhs))) return dyn_cast<VarDecl>(d->getDecl());
  return nullptr;
}

bool mentions(const Stmt *s, const std::set<const VarDecl *> &vars) {
  bool found = false;
  forEachStmt(s, [&](const Stmt *x) {
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) found = found || vars.count(v);
  });
  return found;
}

const VarDecl *referencedVar(const Expr *e) {
  e = strip(e);
  while (e) {
    if (const auto *d = dyn_cast<DeclRefExpr>(e)) return dyn_cast<VarDecl>(d->getDecl());
    if (const auto *u = dyn_cast<UnaryOperator>(e)) {
      e = strip(u->getSubExpr());
    } else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
      e = strip(a->getBase());
    } else if (const auto *m = dyn_cast<MemberExpr>(e)) {
      e = strip(m->getBase());
    } else if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp()) {
      e = strip(b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS());
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

std::string indentLines(const std::string &t) {
  std::string out = "  ";
  for (char c : t) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

const FunctionDecl *enclosingFunction(ASTContext &ctx, const Stmt *s) {
  DynTypedNode n = DynTypedNode::create(*s);
  while (true) {
    DynTypedNodeList ps = ctx.getParents(n);
    if (ps.empty()) return nullptr;
    n = ps[0];
    if (const auto *f = n.get<FunctionDecl>()) return f;
    if (n.get<LambdaExpr>()) return nullptr;
  }
}

size_t findWord(const std::string &text, const std::string &name, size_t from) {
  auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name, from); at != std::string::npos; at = text.find(name, at + 1))
    if ((at == 0 || !part(text[at - 1])) && (at + name.size() >= text.size() || !part(text[at + name.size()])))
      return at;
  return std::string::npos;
}

std::string unusedName(const ASTContext &ctx, const std::string &base) {
  // The identifier table holds every identifier the preprocessor lexed,
  // a superset of the names in scope at any point of the file.
  std::string name = base;
  for (int n = 2; ctx.Idents.find(name) != ctx.Idents.end(); n++) name = base + std::to_string(n);
  return name;
}

std::string calleeName(const CallExpr *call) {
  if (const FunctionDecl *f = call->getDirectCallee()) return f->getNameAsString();
  // In a template, a call with dependent arguments is not resolved yet.
  if (const auto *u = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts()))
    return u->getName().getAsString();
  return "";
}

} // namespace cz::rewrite
