// ArrayFills.cpp: see ArrayFills.h.
#include "ArrayFills.h"

#include <algorithm>

#include "clang/AST/ASTContext.h"

#include "AstQueries.h"
#include "RingCombine.h"

namespace cz::rewrite {

using namespace clang;

const VarDecl *arrayOf(const Expr *e) {
  const auto *s = dyn_cast_or_null<ArraySubscriptExpr>(e ? strip(e) : nullptr);
  const auto *d = s ? dyn_cast<DeclRefExpr>(strip(s->getBase())) : nullptr;
  return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
}

std::string unshownCounts(const std::string &call, const std::string &why) {
  return "the receive counts are not shown to equal what each sender sends (" + why + "): " + call +
         " needs them equal, while a point-to-point receive may be posted for more than arrives, and the "
         "trace records only what arrived; check that every rank's count matches its peer's";
}

namespace {

// `X[i] = e`, comma-separated, in evaluation order; false for anything else.
bool storesOf(const Expr *e, std::vector<const BinaryOperator *> &out) {
  const auto *b = dyn_cast<BinaryOperator>(e->IgnoreParens());
  if (b && b->getOpcode() == BO_Comma) return storesOf(b->getLHS(), out) && storesOf(b->getRHS(), out);
  if (!b || b->getOpcode() != BO_Assign || !arrayOf(b->getLHS())) return false;
  out.push_back(b);
  return true;
}

// Every store of a chain `a[0] = b[0] = 0` (the last one runs first).
void chained(const BinaryOperator *b, std::vector<const BinaryOperator *> &out) {
  const auto *inner = dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParens());
  if (inner && inner->getOpcode() == BO_Assign && arrayOf(inner->getLHS())) chained(inner, out);
  out.push_back(b);
}

} // namespace

ArrayFills::ArrayFills(const SourceText &src, const Stmt *inner, const std::string &comm, unsigned before)
    : src(src), body(outermostStmt(src, inner)), before(before), ev(src) {
  ev.readFunction(inner, comm);
}

// The statements that fill array, or false with whyNot: every use of the
// array in the function is a read of an element, free(), or a store of
// one of the fills.
bool ArrayFills::learn(const VarDecl *array) {
  if (fills.count(array)) return true;
  if (refused.count(array)) return false;
  std::string name = array->getNameAsString();
  auto refuse = [&](const Stmt *at, const std::string &what) {
    whyNot = "`" + name + "` is " + what + " (line " + std::to_string(src.line(at->getBeginLoc())) + ")";
    refused.insert(array);
    return false;
  };
  // Only an array this function owns: a global or a parameter may be
  // written by code this walk does not see, and so may a pointer to
  // memory it did not allocate itself.
  const Expr *init = array->getInit() ? strip(array->getInit()) : nullptr;
  const auto *alloc = dyn_cast_or_null<CallExpr>(init);
  bool owned = array->getType()->isArrayType() ||
               (alloc && (calleeName(alloc) == "malloc" || calleeName(alloc) == "calloc"));
  if (!array->hasLocalStorage() || isa<ParmVarDecl>(array) || !owned) {
    whyNot = "`" + name + "` is " +
             (isa<ParmVarDecl>(array) ? std::string("a parameter")
              : !array->hasLocalStorage() ? std::string("not a local array")
                                          : "a pointer to memory the function does not allocate itself") +
             ": its elements may be set where the function does not show";
    refused.insert(array);
    return false;
  }
  std::vector<Fill> found;
  std::set<const BinaryOperator *> known;
  bool ok = true;
  forEachStmt(body, [&](const Stmt *x) {
    const auto *d = dyn_cast<DeclRefExpr>(x);
    if (!ok || !d || d->getDecl() != array) return;
    const Stmt *use = parentStmt(src, d);
    while (use && (isa<ImplicitCastExpr>(use) || isa<ParenExpr>(use))) use = parentStmt(src, use);
    if (const auto *call = dyn_cast_or_null<CallExpr>(use); call && calleeName(call) == "free") return;
    const auto *sub = dyn_cast_or_null<ArraySubscriptExpr>(use);
    if (!sub || strip(sub->getBase()) != d) {
      ok = refuse(d, "used other than by element (handed on, or pointer arithmetic)");
      return;
    }
    const Stmt *user = parentStmt(src, sub);
    while (user && isa<ParenExpr>(user)) user = parentStmt(src, user);
    if (const auto *u = dyn_cast_or_null<UnaryOperator>(user);
        u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf)) {
      ok = refuse(d, u->getOpcode() == UO_AddrOf ? "written through its address" : "incremented");
      return;
    }
    const auto *b = dyn_cast_or_null<BinaryOperator>(user);
    if (!b || !b->isAssignmentOp() || strip(b->getLHS()) != sub) return; // a read
    if (b->getOpcode() != BO_Assign) {
      ok = refuse(d, "updated by a compound assignment");
      return;
    }
    if (known.count(b)) return;
    // The statement at the function's top level that holds the store.
    const Stmt *top = b;
    while (top && parentStmt(src, top) != body) top = parentStmt(src, top);
    Fill f{top, {}, {}};
    const Stmt *inside = top;
    if (top && countedLoop(top, f.loop)) inside = cast<ForStmt>(top)->getBody();
    else f.loop.counter = nullptr;
    std::vector<const Stmt *> parts;
    if (const auto *c = dyn_cast_or_null<CompoundStmt>(inside)) parts.assign(c->body_begin(), c->body_end());
    else if (inside) parts.push_back(inside);
    bool plain = top != nullptr;
    for (const Stmt *part : parts) {
      std::vector<const BinaryOperator *> list;
      const auto *e = dyn_cast<Expr>(part);
      plain = plain && e && storesOf(e, list);
      for (const BinaryOperator *s : list) chained(s, f.stores);
    }
    if (!plain || !std::count(f.stores.begin(), f.stores.end(), b)) {
      ok = refuse(d, "written by a statement that is no plain fill at the function's top level");
      return;
    }
    if (src.endOffset(top) > before) {
      ok = refuse(d, "written after the exchange starts");
      return;
    }
    known.insert(f.stores.begin(), f.stores.end());
    found.push_back(f);
  });
  if (!ok) return false;
  if (found.empty()) {
    whyNot = "`" + name + "` is filled by no statement of the function";
    refused.insert(array);
    return false;
  }
  fills[array] = found;
  return true;
}

bool ArrayFills::store(const BinaryOperator *b, int depth) {
  long index = 0, v = 0;
  const auto *to = cast<ArraySubscriptExpr>(strip(b->getLHS()));
  if (!eval(to->getIdx(), index, depth + 1) || !eval(b->getRHS(), v, depth + 1)) return false;
  memory[arrayOf(to)][index] = v;
  return true;
}

bool ArrayFills::value(const Expr *e, long p, long me, long &out) {
  if (!runFills(e, nullptr, p, me)) return false;
  if (!eval(e, out, 0)) {
    if (whyNot.empty()) whyNot = "`" + src.of(e) + "` is not evaluated";
    return false;
  }
  return true;
}

bool ArrayFills::element(const VarDecl *array, long index, long p, long me, long &out) {
  if (!runFills(nullptr, array, p, me)) return false;
  auto a = memory.find(array);
  if (a == memory.end() || !a->second.count(index))
    return whyNot = "`" + array->getNameAsString() + "[" + std::to_string(index) + "]` is never set at P = " +
                    std::to_string(p),
           false;
  return out = a->second[index], true;
}

// Every array e reads (or array), and every array their fills read,
// filled in source order, once.
bool ArrayFills::runFills(const Expr *e, const VarDecl *array, long p, long me) {
  ev.p = p, ev.me = me;
  ev.bound.clear();
  memory.clear();
  std::set<const VarDecl *> arrays;
  std::vector<const Expr *> todo;
  if (e) todo.push_back(e);
  if (array && arrays.insert(array).second && learn(array))
    for (const Fill &f : fills[array])
      for (const BinaryOperator *b : f.stores) todo.push_back(b->getRHS());
  while (!todo.empty()) {
    const Expr *x = todo.back();
    todo.pop_back();
    forEachStmt(x, [&](const Stmt *s) {
      const VarDecl *a = arrayOf(dyn_cast<Expr>(s));
      if (!a || !arrays.insert(a).second || !learn(a)) return;
      for (const Fill &f : fills[a])
        for (const BinaryOperator *b : f.stores) todo.push_back(b->getRHS());
    });
  }
  std::vector<const Fill *> order;
  for (const VarDecl *a : arrays) {
    if (!learn(a)) return false;
    for (const Fill &f : fills[a])
      if (std::none_of(order.begin(), order.end(), [&](const Fill *g) { return g->stmt == f.stmt; }))
        order.push_back(&f);
  }
  std::sort(order.begin(), order.end(), [&](const Fill *a, const Fill *b) {
    return src.offset(a->stmt->getBeginLoc()) < src.offset(b->stmt->getBeginLoc());
  });
  for (const Fill *f : order) {
    long first = 0, last = 1;
    if (f->loop.counter && !loopRange(ev, f->loop, first, last)) {
      whyNot = "the bounds of the loop at line " + std::to_string(src.line(f->stmt->getBeginLoc())) +
               " are not evaluated";
      return false;
    }
    if (last - first > 4096) return whyNot = "a fill loop of more than 4096 steps", false;
    for (long j = first; j < last; j++) {
      if (f->loop.counter) ev.bound[f->loop.counter] = j;
      for (const BinaryOperator *b : f->stores)
        if (!store(b, 0)) {
          if (whyNot.empty())
            whyNot = "`" + src.of(b) + "` (line " + std::to_string(src.line(b->getBeginLoc())) + ") is not evaluated";
          return false;
        }
    }
    if (f->loop.counter) ev.bound.erase(f->loop.counter);
  }
  return true;
}

bool ArrayFills::eval(const Expr *e, long &out, int depth) {
  e = strip(e);
  if (!e || depth > 24) return false;
  if (const auto *s = dyn_cast<ArraySubscriptExpr>(e); s && arrayOf(s)) {
    long index = 0;
    if (!eval(s->getIdx(), index, depth + 1)) return false;
    auto a = memory.find(arrayOf(s));
    if (a == memory.end() || !a->second.count(index)) {
      whyNot = "`" + src.of(e) + "` is read where element " + std::to_string(index) + " was never set";
      return false;
    }
    return out = a->second[index], true;
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_Assign && arrayOf(b->getLHS())) {
      // The value of a chained store, stored already (chained()).
      return eval(b->getLHS(), out, depth + 1);
    }
    long l = 0, r = 0;
    if (!eval(b->getLHS(), l, depth + 1) || !eval(b->getRHS(), r, depth + 1)) return false;
    return integerArithmetic(b->getOpcode(), l, r, out);
  }
  if (const auto *c = dyn_cast<ConditionalOperator>(e)) {
    const auto *test = dyn_cast<BinaryOperator>(strip(c->getCond()));
    long l = 0, r = 0;
    if (!test || !test->isComparisonOp() || !eval(test->getLHS(), l, depth + 1) ||
        !eval(test->getRHS(), r, depth + 1))
      return false;
    bool holds = false;
    switch (test->getOpcode()) {
    case BO_LT: holds = l < r; break;
    case BO_GT: holds = l > r; break;
    case BO_LE: holds = l <= r; break;
    case BO_GE: holds = l >= r; break;
    case BO_EQ: holds = l == r; break;
    default: holds = l != r; break;
    }
    return eval(holds ? c->getTrueExpr() : c->getFalseExpr(), out, depth + 1);
  }
  return ev.value(e, out);
}

} // namespace cz::rewrite
