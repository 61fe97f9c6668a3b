// BlockLayout.cpp: block placement and buffer extents (see BlockLayout.h).
#include "BlockLayout.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// The offset of a buffer argument from its array, through pointers the
// region declares (`double *slot = all + q * n`); null when there is none.
const Expr *offsetOf(const ArgumentContext &c, const Expr *buffer) {
  const Expr *e = strip(buffer);
  for (int depth = 0; e && depth < 8; depth++) {
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp() && b->getOpcode() == BO_Add)
      return strip(b->getLHS()->getType()->isPointerType() ? b->getRHS() : b->getLHS());
    if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      if (const auto *a = dyn_cast<ArraySubscriptExpr>(strip(u->getSubExpr()))) return strip(a->getIdx());
      return nullptr;
    }
    const auto *d = dyn_cast<DeclRefExpr>(e);
    const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || !c.region.regionLocals.count(v) || !v->getInit() || !v->getType()->isPointerType()) return nullptr;
    e = strip(v->getInit());
  }
  return nullptr;
}

bool sameValue(const ArgumentContext &c, const Expr *e, const std::string &text) {
  if (squeeze(c.src.of(e->IgnoreParens())) == squeeze(text)) return true;
  return false;
}

bool constantEquals(const ArgumentContext &c, const Expr *a, const Expr *b) {
  Expr::EvalResult x, y;
  return !a->isValueDependent() && !b->isValueDependent() && a->EvaluateAsInt(x, c.src.ctx) &&
         b->EvaluateAsInt(y, c.src.ctx) && x.Val.getInt() == y.Val.getInt();
}

} // namespace

std::string checkBlockPlacement(const ArgumentContext &c, const std::vector<MessageArgs> &rootSide,
                                const std::string &count, const std::string &what) {
  for (const MessageArgs &a : rootSide) {
    std::string at = c.src.of(a.buffer) + " (line " + std::to_string(c.line(a.buffer)) + ")";
    if (!a.peer || c.src.of(a.peer).find("ANY_SOURCE") != std::string::npos)
      return "the root " + what + " the blocks in arrival order (" + at +
             ", from MPI_ANY_SOURCE), not each at its sender's rank: " + "the collective would reorder them";
    const Expr *off = offsetOf(c, a.buffer);
    const auto *mul = off ? dyn_cast<BinaryOperator>(off) : nullptr;
    bool ok = false;
    if (mul && mul->getOpcode() == BO_Mul) {
      const Expr *l = strip(mul->getLHS()), *r = strip(mul->getRHS());
      // The other factor is the count: as written, or the same constant.
      auto isCount = [&](const Expr *f) {
        if (sameValue(c, f, count)) return true;
        for (const auto *list : {&c.sends, &c.recvs})
          for (const MessageArgs &m : *list)
            if (squeeze(c.src.of(m.count)) == squeeze(count) && constantEquals(c, f, m.count)) return true;
        return false;
      };
      auto isPeer = [&](const Expr *f) { return squeeze(c.src.of(f->IgnoreParens())) == squeeze(c.src.of(strip(a.peer))); };
      ok = (isPeer(l) && isCount(r)) || (isPeer(r) && isCount(l));
    }
    // A count of one: the peer alone is the place (`all + q`, `&all[q]`).
    if (!ok && off && squeeze(c.src.of(off->IgnoreParens())) == squeeze(c.src.of(strip(a.peer))))
      for (const auto *list : {&c.sends, &c.recvs})
        for (const MessageArgs &m : *list) {
          Expr::EvalResult one;
          if (squeeze(c.src.of(m.count)) == squeeze(count) && !m.count->isValueDependent() &&
              m.count->EvaluateAsInt(one, c.src.ctx) && one.Val.getInt() == 1)
            ok = true;
        }
    if (!ok)
      return "the root " + what + " rank " + c.src.of(strip(a.peer)) + "'s block at " + at + ", not at " +
             c.src.of(strip(a.peer)) + " * " + count +
             " where the collective keeps it: the blocks would land in other places (a root without a "
             "block of its own, or blocks shifted by one)";
  }
  return "";
}

std::string checkExtent(const ArgumentContext &c, const Expr *buffer, long long bytes, const std::string &what) {
  if (bytes <= 0) return "";
  const Expr *e = strip(buffer);
  while (true) {
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp() && b->getLHS()->getType()->isPointerType())
      e = strip(b->getLHS());
    else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf &&
                                                       isa<ArraySubscriptExpr>(strip(u->getSubExpr())))
      e = strip(cast<ArraySubscriptExpr>(strip(u->getSubExpr()))->getBase());
    else
      break;
  }
  const auto *d = dyn_cast<DeclRefExpr>(e);
  const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v || !c.src.ctx.getAsConstantArrayType(v->getType())) return "";
  long long size = c.src.ctx.getTypeSizeInChars(v->getType()).getQuantity();
  if (size >= bytes) return "";
  return "'" + v->getNameAsString() + "' is declared with " + std::to_string(size) + " bytes (line " +
         std::to_string(c.src.line(v->getLocation())) + "), and the collective " + what + " " +
         std::to_string(bytes) + " bytes there (" + std::to_string(c.match.ranks.size()) + " blocks, one per rank)";
}

} // namespace cz::rewrite
