// CombineStep.cpp: see CombineStep.h.
#include "CombineStep.h"

#include <functional>

#include "clang/AST/Expr.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

namespace {
std::string squeezed(const std::string &t) {
  std::string out;
  for (char c : t)
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  return out;
}
} // namespace

std::string mpiOpOf(BinaryOperatorKind k) {
  switch (k) {
  case BO_Add: case BO_AddAssign: return "MPI_SUM";
  case BO_Mul: case BO_MulAssign: return "MPI_PROD";
  case BO_And: case BO_AndAssign: return "MPI_BAND";
  case BO_Or: case BO_OrAssign: return "MPI_BOR";
  case BO_Xor: case BO_XorAssign: return "MPI_BXOR";
  case BO_LAnd: return "MPI_LAND";
  case BO_LOr: return "MPI_LOR";
  default: return "";
  }
}

// The operation of the combine step that updates the accumulator inside
// the pattern: `acc += x`, `acc[i] = acc[i] * x[i]`, `acc = fmax(acc, x)`.
std::string combineOp(const SourceText &src, const std::vector<const Stmt *> &patterns,
                      const std::set<const VarDecl *> &acc) {
  std::set<std::string> found;
  // `if (in > acc) acc = in;` is the max, `if (in < acc) acc = in;` the min.
  auto guardedPick = [&](const IfStmt *i) -> std::string {
    const Stmt *then = i->getThen();
    if (const auto *block = dyn_cast<CompoundStmt>(then); block && block->size() == 1) then = block->body_front();
    const auto *set = dyn_cast<BinaryOperator>(then);
    const auto *cmp = dyn_cast<BinaryOperator>(strip(i->getCond()));
    if (i->getElse() || !set || set->getOpcode() != BO_Assign || !acc.count(referencedVar(set->getLHS())) || !cmp)
      return "";
    bool greater = cmp->getOpcode() == BO_GT || cmp->getOpcode() == BO_GE;
    bool less = cmp->getOpcode() == BO_LT || cmp->getOpcode() == BO_LE;
    std::string l = squeezed(src.of(strip(cmp->getLHS()))), r = squeezed(src.of(strip(cmp->getRHS())));
    std::string target = squeezed(src.of(strip(set->getLHS()))), value = squeezed(src.of(strip(set->getRHS())));
    bool picksLeft = value == l && target == r, picksRight = value == r && target == l;
    if (!(greater || less) || !(picksLeft || picksRight)) return "";
    return greater == picksLeft ? "MPI_MAX" : "MPI_MIN";
  };
  std::function<void(const Stmt *)> visit = [&](const Stmt *x) {
    if (!x) return;
    if (const auto *i = dyn_cast<IfStmt>(x)) {
      std::string op = guardedPick(i);
      if (!op.empty()) {
        found.insert(op);
        return;
      }
    }
    if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp() && acc.count(referencedVar(b->getLHS()))) {
      if (b->isCompoundAssignmentOp()) {
        found.insert(mpiOpOf(b->getOpcode()));
      } else if (const auto *rhs = dyn_cast<BinaryOperator>(strip(b->getRHS()))) {
        found.insert(mpiOpOf(rhs->getOpcode()));
      } else if (const auto *call = dyn_cast<CallExpr>(strip(b->getRHS()))) {
        std::string n = calleeName(call);
        if (n == "fmax" || n == "fmaxf" || n == "max" || n == "std::max") found.insert("MPI_MAX");
        else if (n == "fmin" || n == "fminf" || n == "min" || n == "std::min") found.insert("MPI_MIN");
        else found.insert("");
      } else if (const auto *c = dyn_cast<ConditionalOperator>(strip(b->getRHS()))) {
        const auto *cmp = dyn_cast<BinaryOperator>(strip(c->getCond()));
        bool greater = cmp && (cmp->getOpcode() == BO_GT || cmp->getOpcode() == BO_GE);
        bool less = cmp && (cmp->getOpcode() == BO_LT || cmp->getOpcode() == BO_LE);
        // a > b ? a : b is the max; a > b ? b : a the min.
        bool picksLeft = cmp && src.of(strip(c->getTrueExpr())) == src.of(strip(cmp->getLHS()));
        if (greater || less) found.insert((greater == picksLeft) ? "MPI_MAX" : "MPI_MIN");
        else found.insert("");
      } else {
        found.insert("");
      }
    }
    for (const Stmt *ch : x->children()) visit(ch);
  };
  for (const Stmt *p : patterns) visit(p);
  found.erase("");
  return found.size() == 1 ? *found.begin() : "";
}

} // namespace cz::rewrite
