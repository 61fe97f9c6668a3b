// RingCombine.cpp: the ring's loop body: which variable the arriving block
// is combined into and with which MPI_Op, and the forward that passes the
// block on (see RingCombine.h).
#include "RingCombine.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "CombineStep.h"

namespace cz::rewrite {

using namespace clang;

const Stmt *parentStmt(const SourceText &src, const Stmt *s) {
  auto parents = src.ctx.getParents(*s);
  return parents.empty() ? nullptr : parents[0].get<Stmt>();
}

QualType elementType(const VarDecl *v) {
  QualType t = v->getType();
  if (const ArrayType *a = t->getAsArrayTypeUnsafe()) t = a->getElementType();
  else if (t->isPointerType()) t = t->getPointeeType();
  return t.getCanonicalType().getUnqualifiedType();
}

namespace {

bool evaluates(const SourceText &src, const Expr *e, llvm::APSInt &out) {
  Expr::EvalResult r;
  if (!e || e->isValueDependent() || !e->EvaluateAsInt(r, src.ctx)) return false;
  out = r.Val.getInt();
  return true;
}

bool isVar(const Expr *e, const VarDecl *v) {
  const auto *d = dyn_cast_or_null<DeclRefExpr>(strip(e));
  return v && d && d->getDecl() == v;
}

} // namespace

const VarDecl *wholeBuffer(const SourceText &src, const Expr *e) {
  e = strip(e);
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *v = dyn_cast<VarDecl>(d->getDecl());
    return v && (v->getType()->isArrayType() || v->getType()->isPointerType()) ? v : nullptr;
  }
  const auto *u = dyn_cast<UnaryOperator>(e);
  if (!u || u->getOpcode() != UO_AddrOf) return nullptr;
  const Expr *s = strip(u->getSubExpr());
  if (const auto *d = dyn_cast<DeclRefExpr>(s)) {
    const auto *v = dyn_cast<VarDecl>(d->getDecl());
    return v && v->getType()->isArithmeticType() ? v : nullptr;
  }
  llvm::APSInt zero;
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(s); a && evaluates(src, a->getIdx(), zero) && zero == 0)
    return wholeBuffer(src, a->getBase());
  return nullptr;
}

bool coversCount(const SourceText &src, const Expr *bytes, const Expr *count, QualType elem) {
  if (elem->isIncompleteType()) return false;
  int64_t size = src.ctx.getTypeSizeInChars(elem).getQuantity();
  llvm::APSInt b, n;
  if (evaluates(src, bytes, b) && evaluates(src, count, n)) return b.getExtValue() >= n.getExtValue() * size;
  // `n * sizeof(T)` or `sizeof(T) * n`, T of the element's size.
  const auto *m = dyn_cast<BinaryOperator>(strip(bytes));
  if (!m || m->getOpcode() != BO_Mul) return false;
  for (int side = 0; side < 2; side++) {
    const Expr *k = side ? m->getRHS() : m->getLHS(), *s = side ? m->getLHS() : m->getRHS();
    llvm::APSInt one;
    if (squeeze(src.of(strip(k))) == squeeze(src.of(strip(count))) && evaluates(src, s, one) &&
        one.getExtValue() == size)
      return true;
  }
  return false;
}

namespace {

// The loop body's view of one element: acc[i] and got[i] for arrays (i the
// element loop's counter), acc and got for single values.
struct Element {
  const VarDecl *acc, *got, *pass, *index;
  bool is(const Expr *e, const VarDecl *v) const {
    if (!index) return isVar(e, v);
    const auto *a = dyn_cast<ArraySubscriptExpr>(strip(e));
    return a && isVar(a->getBase(), v) && isVar(a->getIdx(), index);
  }
  bool accAndGot(const Expr *a, const Expr *b) const {
    return (is(a, acc) && is(b, got)) || (is(a, got) && is(b, acc));
  }
};

// max or min from a comparison of acc and got that picks `picked`.
std::string pick(const Element &el, const Expr *cond, const Expr *picked) {
  const auto *cmp = dyn_cast<BinaryOperator>(strip(cond));
  if (!cmp || !el.accAndGot(cmp->getLHS(), cmp->getRHS())) return "";
  bool greater = cmp->getOpcode() == BO_GT || cmp->getOpcode() == BO_GE;
  bool less = cmp->getOpcode() == BO_LT || cmp->getOpcode() == BO_LE;
  if (!greater && !less) return "";
  bool picksLeft = el.is(picked, el.is(cmp->getLHS(), el.acc) ? el.acc : el.got);
  return greater == picksLeft ? "MPI_MAX" : "MPI_MIN";
}

// The MPI_Op of one element's combine step, "" when it is none.
std::string combineOpOf(const Element &el, const Stmt *s) {
  if (const auto *i = dyn_cast<IfStmt>(s)) {
    const Stmt *then = i->getThen();
    if (const auto *b = dyn_cast<CompoundStmt>(then); b && b->size() == 1) then = b->body_front();
    const auto *set = dyn_cast<BinaryOperator>(then);
    if (i->getElse() || i->getInit() || !set || set->getOpcode() != BO_Assign || !el.is(set->getLHS(), el.acc) ||
        !el.is(set->getRHS(), el.got))
      return "";
    return pick(el, i->getCond(), set->getRHS());
  }
  const auto *b = dyn_cast<BinaryOperator>(s);
  if (!b || !b->isAssignmentOp() || !el.is(b->getLHS(), el.acc)) return "";
  if (b->isCompoundAssignmentOp()) return el.is(b->getRHS(), el.got) ? mpiOpOf(b->getOpcode()) : "";
  const Expr *rhs = strip(b->getRHS());
  if (const auto *r = dyn_cast<BinaryOperator>(rhs))
    return el.accAndGot(r->getLHS(), r->getRHS()) ? mpiOpOf(r->getOpcode()) : "";
  if (const auto *c = dyn_cast<CallExpr>(rhs)) {
    if (c->getNumArgs() != 2 || !el.accAndGot(c->getArg(0), c->getArg(1))) return "";
    std::string n = calleeName(c);
    if (n == "fmax" || n == "fmaxf" || n == "fmaxl" || n == "max") return "MPI_MAX";
    if (n == "fmin" || n == "fminf" || n == "fminl" || n == "min") return "MPI_MIN";
    return "";
  }
  if (const auto *c = dyn_cast<ConditionalOperator>(rhs)) {
    if (!el.accAndGot(c->getTrueExpr(), c->getFalseExpr())) return "";
    return pick(el, c->getCond(), c->getTrueExpr());
  }
  return "";
}

// `pass = got`, `pass[i] = got[i]`.
bool isForwardElement(const Element &el, const Stmt *s) {
  const auto *b = dyn_cast<BinaryOperator>(s);
  return b && b->getOpcode() == BO_Assign && el.pass != el.acc && el.is(b->getLHS(), el.pass) &&
         el.is(b->getRHS(), el.got);
}

// `for (int i = 0; i < count; i++)` whose body writes no i: i, else null.
const VarDecl *elementLoop(const SourceText &src, const Stmt *s, const Expr *count) {
  const auto *f = dyn_cast<ForStmt>(s);
  if (!f || !f->getInit() || !f->getCond() || !f->getInc()) return nullptr;
  const VarDecl *i = nullptr;
  const Expr *start = nullptr;
  if (const auto *d = dyn_cast<DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
    i = dyn_cast<VarDecl>(d->getSingleDecl());
    start = i ? i->getInit() : nullptr;
  } else if (const auto *a = dyn_cast<BinaryOperator>(f->getInit()); a && a->getOpcode() == BO_Assign) {
    i = assignedVar(a);
    start = a->getRHS();
  }
  llvm::APSInt v, n, c;
  if (!i || !evaluates(src, start, v) || v != 0) return nullptr;
  const auto *cond = dyn_cast<BinaryOperator>(strip(f->getCond()));
  if (!cond || cond->getOpcode() != BO_LT || !isVar(cond->getLHS(), i)) return nullptr;
  bool sameCount = squeeze(src.of(strip(cond->getRHS()))) == squeeze(src.of(strip(count))) ||
                   (evaluates(src, cond->getRHS(), n) && evaluates(src, count, c) && n == c);
  if (!sameCount) return nullptr;
  const Stmt *inc = f->getInc();
  bool step = false;
  if (const auto *u = dyn_cast<UnaryOperator>(inc)) step = u->isIncrementOp() && isVar(u->getSubExpr(), i);
  if (const auto *a = dyn_cast<BinaryOperator>(inc); a && a->getOpcode() == BO_AddAssign)
    step = isVar(a->getLHS(), i) && evaluates(src, a->getRHS(), v) && v == 1;
  bool written = false;
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    const Expr *lhs = nullptr;
    if (assignedVar(x, &lhs) == i) written = true;
    if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf && isVar(u->getSubExpr(), i))
      written = true;
  });
  return step && !written ? i : nullptr;
}

std::vector<const Stmt *> statementsOf(const Stmt *s) {
  if (const auto *b = dyn_cast<CompoundStmt>(s)) return {b->body_begin(), b->body_end()};
  return {s};
}

// The one variable other than got that the loop writes from an expression
// reading got, other than the forward into pass.
const VarDecl *accumulatorIn(const Stmt *loop, const VarDecl *got, const VarDecl *pass, std::string &several) {
  std::set<const VarDecl *> found;
  forEachStmt(loop, [&](const Stmt *x) {
    const auto *b = dyn_cast<BinaryOperator>(x);
    if (!b || !b->isAssignmentOp()) return;
    const VarDecl *v = referencedVar(b->getLHS());
    if (!v || v == got || !mentions(b->getRHS(), {got})) return;
    // `pass = got`: the forward, unless it also reads pass (`pass += got`).
    if (v == pass && !b->isCompoundAssignmentOp() && !mentions(b->getRHS(), {pass})) return;
    found.insert(v);
  });
  for (const VarDecl *v : found) several += (several.empty() ? "'" : ", '") + v->getNameAsString() + "'";
  return found.size() == 1 ? *found.begin() : nullptr;
}

// std::name, not a function of the program's own that shares its name.
bool isStdCall(const CallExpr *c, const std::string &name) {
  const FunctionDecl *f = c->getDirectCallee();
  return f && f->isInStdNamespace() && f->getNameAsString() == name;
}

// `t = a; a = b; b = t;` (t assigned or declared there; a and b either
// way round) or `std::swap(a, b)` from kids[k]: the number of statements,
// 0 if none; temp: t.
size_t swapAt(const std::vector<const Stmt *> &kids, size_t k, const VarDecl *a, const VarDecl *b,
              const VarDecl *&temp) {
  auto plainVar = [](const Expr *e) -> const VarDecl * {
    const auto *d = dyn_cast_or_null<DeclRefExpr>(strip(e));
    return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  };
  auto pair = [&](const VarDecl *x, const VarDecl *y) { return x != y && (x == a || x == b) && (y == a || y == b); };
  temp = nullptr;
  if (const auto *c = dyn_cast<CallExpr>(kids[k]); c && isStdCall(c, "swap") && c->getNumArgs() == 2)
    return pair(plainVar(c->getArg(0)), plainVar(c->getArg(1))) ? 1 : 0;
  if (k + 3 > kids.size()) return 0;
  // The copies of the pointer values: {to, from} for each statement.
  std::pair<const VarDecl *, const VarDecl *> moves[3];
  for (size_t j = 0; j < 3; j++) {
    const Stmt *s = kids[k + j];
    if (const auto *d = dyn_cast<DeclStmt>(s); j == 0 && d && d->isSingleDecl()) {
      const auto *v = dyn_cast<VarDecl>(d->getSingleDecl());
      moves[j] = {v, v ? plainVar(v->getInit()) : nullptr};
    } else if (const auto *o = dyn_cast<BinaryOperator>(s); o && o->getOpcode() == BO_Assign) {
      moves[j] = {plainVar(o->getLHS()), plainVar(o->getRHS())};
    } else {
      return 0;
    }
  }
  const VarDecl *t = moves[0].first, *x = moves[0].second, *y = moves[1].second;
  if (!t || t == a || t == b || !pair(x, y) || moves[1].first != x || moves[2].first != y || moves[2].second != t)
    return 0;
  temp = t;
  return 3;
}

} // namespace

const VarDecl *copiedWhole(const SourceText &src, const Stmt *s, const Expr *count, const VarDecl **fromOut) {
  const auto *c = dyn_cast<CallExpr>(s);
  if (!c || c->getNumArgs() != 3) return nullptr;
  std::string n = calleeName(c);
  const VarDecl *to = nullptr, *from = nullptr;
  if (n == "memcpy" || n == "memmove") {
    to = wholeBuffer(src, c->getArg(0)), from = wholeBuffer(src, c->getArg(1));
    if (!to || !from || !coversCount(src, c->getArg(2), count, elementType(to))) return nullptr;
  } else if (isStdCall(c, "copy") || isStdCall(c, "copy_n")) {
    // std::copy(from, from + count, to), std::copy_n(from, count, to).
    from = wholeBuffer(src, c->getArg(0)), to = wholeBuffer(src, c->getArg(2));
    const Expr *span = strip(c->getArg(1));
    const Expr *elements = span;
    if (n == "copy") {
      const auto *end = dyn_cast<BinaryOperator>(span);
      if (!end || end->getOpcode() != BO_Add || wholeBuffer(src, end->getLHS()) != from) return nullptr;
      elements = end->getRHS();
    }
    llvm::APSInt k, c0;
    bool sameCount = squeeze(src.of(strip(elements))) == squeeze(src.of(strip(count))) ||
                     (evaluates(src, elements, k) && evaluates(src, count, c0) && k.getExtValue() >= c0.getExtValue());
    if (!from || !to || !sameCount) return nullptr;
  } else {
    return nullptr;
  }
  if (elementType(to) != elementType(from)) return nullptr;
  if (fromOut) *fromOut = from;
  return to;
}

namespace {

bool isMemCopy(const SourceText &src, const Stmt *s, const RingCombine &r) {
  const VarDecl *from = nullptr;
  return copiedWhole(src, s, r.count, &from) == r.pass && from == r.got;
}

} // namespace

RingCombine analyzeRing(const SourceText &src, const std::vector<MessageArgs> &sends,
                        const std::vector<MessageArgs> &recvs, const std::string &comm) {
  RingCombine r;
  if (sends.empty() || recvs.empty()) return r;
  r.got = wholeBuffer(src, recvs[0].buffer);
  r.pass = wholeBuffer(src, sends[0].buffer);
  for (const MessageArgs &a : recvs) r.got = wholeBuffer(src, a.buffer) == r.got ? r.got : nullptr;
  for (const MessageArgs &a : sends) r.pass = wholeBuffer(src, a.buffer) == r.pass ? r.pass : nullptr;
  if (!r.got || !r.pass) return r;
  // The innermost loop around every message.
  const Stmt *loop = nullptr;
  for (const Stmt *p = parentStmt(src, recvs[0].buffer); p && !loop; p = parentStmt(src, p))
    if (isLoop(p)) loop = p;
  if (!loop) return r;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      unsigned at = src.offset(a.buffer->getBeginLoc());
      if (at < src.offset(loop->getBeginLoc()) || at >= src.endOffset(loop)) return r;
    }
  std::string several;
  r.acc = accumulatorIn(loop, r.got, r.pass, several);
  if (!r.acc && several.empty()) return r;
  r.found = true;
  r.loop = loop;
  auto refuse = [&](const std::string &why) -> RingCombine & {
    if (r.whyNot.empty()) r.whyNot = why;
    return r;
  };
  if (!r.acc) return refuse("the ring combines what arrives into several variables (" + several + ")");
  std::string accName = "'" + r.acc->getNameAsString() + "'";
  r.array = r.got->getType()->isArrayType() || r.got->getType()->isPointerType();
  r.forwardsPartial = r.acc == r.pass;
  r.count = sends[0].count;
  r.sendPeer = sends[0].peer;
  r.recvPeer = recvs[0].peer;
  for (const MessageArgs &a : sends)
    if (!a.peer || !r.sendPeer || squeeze(src.of(a.peer)) != squeeze(src.of(r.sendPeer))) r.sendPeer = nullptr;
  for (const MessageArgs &a : recvs)
    if (!a.peer || !r.recvPeer || squeeze(src.of(a.peer)) != squeeze(src.of(r.recvPeer))) r.recvPeer = nullptr;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list)
      if (squeeze(src.of(a.count)) != squeeze(src.of(r.count)))
        return refuse("the ring's messages name different counts (" + src.of(r.count) + ", " + src.of(a.count) + ")");
  llvm::APSInt one;
  if (!r.array && (!evaluates(src, r.count, one) || one != 1))
    return refuse("the ring sends single values, but with the count " + src.of(r.count));
  if (r.array != (r.acc->getType()->isArrayType() || r.acc->getType()->isPointerType()) ||
      (r.array != (r.pass->getType()->isArrayType() || r.pass->getType()->isPointerType())))
    return refuse("the ring mixes single values and arrays in " + accName + ", '" + r.got->getNameAsString() +
                  "' and '" + r.pass->getNameAsString() + "'");
  QualType elem = elementType(r.got);
  if (!elem->isArithmeticType() || elementType(r.acc) != elem || elementType(r.pass) != elem)
    return refuse("the ring combines what arrives in '" + r.got->getNameAsString() + "' (" + elem.getAsString() +
                  ") into " + accName + " (" + elementType(r.acc).getAsString() +
                  "): MPI_Allreduce combines in the type of the messages only");

  // The loop body: the messages, then the combine and the forward.
  const Stmt *body = nullptr;
  if (const auto *f = dyn_cast<ForStmt>(loop)) body = f->getBody();
  else if (const auto *w = dyn_cast<WhileStmt>(loop)) body = w->getBody();
  else if (const auto *d = dyn_cast<DoStmt>(loop)) body = d->getBody();
  if (!body) return refuse("the ring's loop is of a kind the rewriter does not read");
  std::set<const VarDecl *> buffers{r.acc, r.got, r.pass};
  int combines = 0, forwards = 0;
  bool messagesSeen = false;
  auto line = [&](const Stmt *s) { return "line " + std::to_string(src.line(s->getBeginLoc())); };
  std::vector<const Stmt *> kids = statementsOf(body);
  // The last statement holding a message or its completion.
  size_t lastMessage = 0;
  for (size_t k = 0; k < kids.size(); k++) {
    bool message = false;
    forEachStmt(kids[k], [&](const Stmt *x) {
      const auto *c = dyn_cast<CallExpr>(x);
      std::string n = c ? calleeName(c) : "";
      if (c && (isPointToPoint(n) || isCompletionCall(n))) message = true;
    });
    if (message) lastMessage = k, messagesSeen = true;
  }
  if (!messagesSeen) return refuse("the ring's messages are not statements of its loop's body");
  // A swap of the send and receive pointers ends the step: the block that
  // arrived is the one the next step sends.
  for (size_t k = lastMessage + 1; k < kids.size(); k++) {
    const VarDecl *temp = nullptr;
    size_t n = swapAt(kids, k, r.pass, r.got, temp);
    if (!n) continue;
    r.swaps = true, r.swapTemp = temp;
    if (k + n != kids.size())
      return refuse("the ring swaps '" + r.pass->getNameAsString() + "' and '" + r.got->getNameAsString() +
                    "' before its step ends (" + line(kids[k]) + "): the rewriter reads swaps at the end only");
    if (!r.pass->getType()->isPointerType() || !r.got->getType()->isPointerType())
      return refuse("the ring swaps '" + r.pass->getNameAsString() + "' and '" + r.got->getNameAsString() +
                    "', which are not both pointers");
    if (r.acc == r.pass || r.acc == r.got)
      return refuse("the ring combines into " + accName + " and then swaps it with '" +
                    (r.acc == r.pass ? r.got : r.pass)->getNameAsString() + "', so a later step receives over " +
                    "what it combined: which buffer holds what after the loop depends on the parity of P-1, and "
                    "no buffer is seen to end with every rank's values combined");
    for (size_t j = k; j < k + n; j++) r.steps.insert(kids[j]);
    forwards++;
    kids.resize(k);
    break;
  }
  for (size_t k = 0; k < kids.size(); k++) {
    const Stmt *s = kids[k];
    if (k <= lastMessage) {
      bool message = false;
      forEachStmt(s, [&](const Stmt *x) {
        const auto *c = dyn_cast<CallExpr>(x);
        message = message || (c && (isPointToPoint(calleeName(c)) || isCompletionCall(calleeName(c))));
      });
      bool touches = mentions(s, {r.acc}) && !r.forwardsPartial;
      if (!message || touches) {
        if (mentions(s, buffers))
          return refuse("the ring's loop uses the buffers at " + line(s) + " (" + src.of(s) +
                        ") before the step's messages end");
      }
      continue;
    }
    Element scalar{r.acc, r.got, r.pass, nullptr};
    std::string op;
    if (!r.array) {
      op = combineOpOf(scalar, s);
      if (!op.empty()) combines++, r.steps.insert(s), r.op = op;
      else if (isForwardElement(scalar, s)) forwards++, r.steps.insert(s);
      else if (mentions(s, buffers))
        return refuse("the ring combines what arrives into " + accName + " with `" + src.of(s) + "` (" + line(s) +
                      "), which is no MPI reduction operation (+, *, max, min, &, |, ^, &&, ||)");
      continue;
    }
    if (isMemCopy(src, s, r)) {
      forwards++, r.steps.insert(s);
      continue;
    }
    if (const VarDecl *i = elementLoop(src, s, r.count)) {
      Element el{r.acc, r.got, r.pass, i};
      bool ok = true;
      for (const Stmt *e : statementsOf(cast<ForStmt>(s)->getBody())) {
        std::string o = combineOpOf(el, e);
        if (!o.empty()) combines++, r.op = o;
        else if (isForwardElement(el, e)) forwards++;
        else if (mentions(e, buffers)) ok = false;
      }
      if (ok) {
        r.steps.insert(s);
        continue;
      }
    }
    if (mentions(s, buffers))
      return refuse("the ring's loop does `" + src.of(s) + "` (" + line(s) + ") with its buffers, which is "
                    "neither an element-wise MPI reduction operation (+, *, max, min, &, |, ^, &&, ||) of what "
                    "arrives into " + accName + " nor a forward, over the " + src.of(r.count) +
                    " elements the messages carry");
  }
  if (combines != 1)
    return refuse(combines ? "the ring combines what arrives into " + accName + " more than once per step"
                           : "the ring's loop changes " + accName + " after its messages, but not by an MPI "
                             "reduction operation");
  bool replace = r.got == r.pass; // MPI_Sendrecv_replace: the block forwards itself
  if (r.forwardsPartial) {
    // Partial results travel: after step s rank r holds ranks r-s..r
    // combined, ranks counted once only if the operation is idempotent.
    static const std::set<std::string> idempotent = {"MPI_MAX", "MPI_MIN", "MPI_BAND", "MPI_BOR", "MPI_LAND",
                                                     "MPI_LOR"};
    if (!idempotent.count(r.op))
      return refuse("the ring sends its partial result " + accName + " on, so each step combines values already "
                    "combined: with " + r.op + " ranks are counted several times, which is no allreduce");
    r.notes.push_back("the ring forwards its partial result " + accName + "; " + r.op +
                      " counts a rank combined twice once, so every rank ends with all values combined");
  } else if (!replace && forwards != 1) {
    return refuse(forwards ? "the ring forwards what arrives into '" + r.pass->getNameAsString() +
                                 "' more than once per step"
                           : "the ring does not forward what arrives (no `" + r.pass->getNameAsString() + " = " +
                                 r.got->getNameAsString() + "` or copy of all " + src.of(r.count) +
                                 " elements): it sends '" + r.pass->getNameAsString() +
                                 "' again instead of passing every rank's block on");
  }
  if (elem->isFloatingType() && r.op != "MPI_SUM" && r.op != "MPI_PROD" && r.op != "MPI_MAX" && r.op != "MPI_MIN")
    return refuse("the ring combines floating-point values with " + r.op +
                  ", which MPI defines for integer types only");
  if (!r.forwardsPartial) checkRingStart(src, r);
  checkRingLeftovers(src, r);
  checkRingSteps(src, r, comm);
  if (r.whyNot.empty())
    r.notes.push_back("a ring that combines each " + std::string(r.array ? "block" : "value") +
                      " as it arrives into " + accName + " (" + r.op + ")" +
                      (r.forwardsPartial ? "" : " and forwards it") + ": every rank ends with all values combined");
  return r;
}

} // namespace cz::rewrite
