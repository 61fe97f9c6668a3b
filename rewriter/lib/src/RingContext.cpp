// RingContext.cpp: what surrounds a combining ring's loop (see
// RingCombine.h): the values its accumulator and its sent buffer start
// from, what the program reads of the buffers the ring leaves holding
// another rank's block, and the number of steps.
#include "RingCombine.h"

#include <functional>
#include <map>
#include <set>

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "RingEvaluator.h"

namespace cz::rewrite {

using namespace clang;

namespace {

std::string name(const VarDecl *v) { return "'" + v->getNameAsString() + "'"; }

bool isAllocation(const Expr *e) {
  const auto *c = dyn_cast_or_null<CallExpr>(strip(e));
  std::string n = c ? calleeName(c) : "";
  return n == "malloc" || n == "calloc" || isa_and_nonnull<CXXNewExpr>(strip(e));
}

// The ring's loop, its enclosing statements up to the function body.
std::vector<const Stmt *> chainOf(const SourceText &src, const Stmt *loop) {
  std::vector<const Stmt *> chain;
  for (const Stmt *p = loop; p; p = parentStmt(src, p)) chain.push_back(p);
  return chain;
}

// Which variables hold equal values (over the count elements the ring
// moves), statement by statement: a copy gives the destination the
// source's value; anything else that names a variable gives it a value of
// its own.
class Values {
public:
  // exposed: buffers other code can reach (globals, the caller's memory),
  // which any call may change.
  Values(const SourceText &src, const RingCombine &r, const std::set<const VarDecl *> &exposed)
      : src(src), r(r), exposed(exposed) {}

  void run(const Stmt *s) {
    step(s);
    bool calls = false;
    forEachStmt(s, [&](const Stmt *x) {
      const auto *c = dyn_cast<CallExpr>(x);
      static const std::set<std::string> harmless = {"memcpy", "memmove", "memset", "malloc", "calloc",
                                                      "MPI_Comm_rank", "MPI_Comm_size", "printf", "fprintf"};
      if (c && !harmless.count(calleeName(c))) calls = true;
    });
    if (calls)
      for (const VarDecl *v : exposed) value[canon(v)] = next++;
  }

  int of(const VarDecl *v) {
    auto it = value.find(canon(v));
    return it != value.end() ? it->second : (value[canon(v)] = next++);
  }

private:
  // A swapped pointer that starts at an array of the function's names the
  // array's memory.
  const VarDecl *canon(const VarDecl *v) const {
    if (v && v == r.pass && r.passArray) return r.passArray;
    if (v && v == r.got && r.gotArray) return r.gotArray;
    return v;
  }

  void step(const Stmt *s) {
    if (const auto *d = dyn_cast<DeclStmt>(s)) {
      for (const Decl *x : d->decls())
        if (const auto *v = dyn_cast<VarDecl>(x)) {
          if (canon(v) != v) continue; // a new name for the array, which keeps its values
          const auto *from = v->getInit() ? dyn_cast<DeclRefExpr>(strip(v->getInit())) : nullptr;
          const auto *fv = from ? dyn_cast<VarDecl>(from->getDecl()) : nullptr;
          if (!fv && v->getInit()) forget(v->getInit()); // what it reads may be written there too
          value[v] = fv && !v->getType()->isPointerType() ? of(fv) : next++;
        }
      return;
    }
    const VarDecl *from = nullptr;
    if (const VarDecl *to = copiedWhole(src, s, r.count, &from)) {
      value[canon(to)] = of(from);
      return;
    }
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign && !r.array) {
      assign(b, nullptr);
      return;
    }
    if (r.array)
      if (const auto *f = dyn_cast<ForStmt>(s); f && elementLoopCounter(f)) {
        const VarDecl *i = elementLoopCounter(f);
        const Stmt *body = f->getBody();
        std::vector<const Stmt *> kids;
        if (const auto *c = dyn_cast<CompoundStmt>(body)) kids.assign(c->body_begin(), c->body_end());
        else kids.push_back(body);
        for (const Stmt *k : kids) {
          const auto *b = dyn_cast<BinaryOperator>(k);
          if (b && b->getOpcode() == BO_Assign) assign(b, i);
          else forget(k);
        }
        return;
      }
    forget(s);
  }

  const SourceText &src;
  const RingCombine &r;
  std::set<const VarDecl *> exposed;
  std::map<const VarDecl *, int> value;
  int next = 0;

  void forget(const Stmt *s) {
    forEachStmt(s, [&](const Stmt *x) {
      if (const auto *d = dyn_cast<DeclRefExpr>(x))
        if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) value[canon(v)] = next++;
    });
  }

  // x, or x[i] in an element loop over i.
  const VarDecl *element(const Expr *e, const VarDecl *i) const {
    e = strip(e);
    if (!i) {
      const auto *d = dyn_cast<DeclRefExpr>(e);
      return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    }
    const auto *a = dyn_cast<ArraySubscriptExpr>(e);
    const auto *idx = a ? dyn_cast<DeclRefExpr>(strip(a->getIdx())) : nullptr;
    if (!idx || idx->getDecl() != i) return nullptr;
    const auto *base = dyn_cast<DeclRefExpr>(strip(a->getBase()));
    return base ? dyn_cast<VarDecl>(base->getDecl()) : nullptr;
  }

  // `a = b = expr`: the value assigned, after the inner assignments.
  int assign(const BinaryOperator *b, const VarDecl *i) {
    const VarDecl *to = element(b->getLHS(), i);
    const Expr *rhs = strip(b->getRHS());
    int v;
    if (const auto *inner = dyn_cast<BinaryOperator>(rhs); inner && inner->getOpcode() == BO_Assign)
      v = assign(inner, i);
    else if (const VarDecl *from = element(rhs, i))
      v = of(from);
    else
      forget(rhs), v = next++;
    if (to) value[canon(to)] = v;
    else forget(b->getLHS());
    return v;
  }

  const VarDecl *elementLoopCounter(const ForStmt *f) const {
    const auto *cond = f->getCond() ? dyn_cast<BinaryOperator>(strip(f->getCond())) : nullptr;
    const auto *d = f->getInit() ? dyn_cast<DeclStmt>(f->getInit()) : nullptr;
    if (!cond || cond->getOpcode() != BO_LT || !d || !d->isSingleDecl()) return nullptr;
    const auto *i = dyn_cast<VarDecl>(d->getSingleDecl());
    Expr::EvalResult start, n, c;
    if (!i || !i->getInit() || !i->getInit()->EvaluateAsInt(start, src.ctx) || start.Val.getInt() != 0)
      return nullptr;
    const auto *lhs = dyn_cast<DeclRefExpr>(strip(cond->getLHS()));
    bool sameCount = squeeze(src.of(strip(cond->getRHS()))) == squeeze(src.of(strip(r.count))) ||
                     (cond->getRHS()->EvaluateAsInt(n, src.ctx) && r.count->EvaluateAsInt(c, src.ctx) &&
                      n.Val.getInt() == c.Val.getInt());
    const auto *inc = f->getInc() ? dyn_cast<UnaryOperator>(f->getInc()) : nullptr;
    bool written = false;
    forEachStmt(f->getBody(), [&](const Stmt *x) {
      if (assignedVar(x) == i) written = true;
    });
    if (!lhs || lhs->getDecl() != i || !sameCount || !inc || !inc->isIncrementOp() || written) return nullptr;
    return i;
  }
};

} // namespace

void checkRingStart(const SourceText &src, RingCombine &r) {
  const Stmt *fnBody = chainOf(src, r.loop).back();
  // Swapped pointers: the values they start from are followed when each
  // is the only name of an allocation of its own, or names an array of the
  // function's, which then has two names (canon in Values).
  if (r.swaps)
    for (const VarDecl *v : {r.pass, r.got}) {
      const Stmt *moved = nullptr; // an assignment besides the swap's
      forEachStmt(fnBody, [&](const Stmt *x) {
        const auto *u = dyn_cast<UnaryOperator>(x);
        bool address = u && u->getOpcode() == UO_AddrOf && referencedVar(u->getSubExpr()) == v &&
                       isa<DeclRefExpr>(strip(u->getSubExpr()));
        if (!moved && !r.steps.count(x) && (assignedVar(x) == v || address)) moved = x;
      });
      const VarDecl *array = v->getInit() ? wholeBuffer(src, v->getInit()) : nullptr;
      bool ownArray = array && array->getType()->isArrayType() && array->hasLocalStorage() &&
                      !isa<ParmVarDecl>(array) && array != r.acc && array != r.passArray;
      if (!v->hasLocalStorage() || isa<ParmVarDecl>(v) || moved || (!isAllocation(v->getInit()) && !ownArray)) {
        r.whyNot = "the ring swaps " + name(r.pass) + " and " + name(r.got) + ", but " + name(v) +
                   (moved ? " is also set at line " + std::to_string(src.line(moved->getBeginLoc()))
                    : array && array == r.passArray
                        ? " starts at the same array " + name(array) + " as " + name(r.pass)
                        : std::string(" starts neither at an allocation of its own (malloc, calloc, new) nor at "
                                      "an array of the function's")) +
                   ": the values and the later reads of the memory it points to are not followed";
        return;
      }
      if (ownArray) (v == r.pass ? r.passArray : r.gotArray) = array;
    }
  // The address of a buffer kept in another pointer: writes through it
  // change the buffer out of sight.
  std::string kept;
  auto keeps = [&](const Expr *value, const Stmt *into) {
    const VarDecl *v = referencedVar(value);
    bool buffer = v && (v == r.acc || v == r.pass || v == r.got || v == r.passArray || v == r.gotArray);
    if (kept.empty() && buffer && !isAllocation(value))
      kept = "the address of " + name(v) + " is kept in another pointer (line " +
             std::to_string(src.line(into->getBeginLoc())) + "): writes through it are not followed";
  };
  forEachStmt(fnBody, [&](const Stmt *x) {
    if (r.steps.count(x)) return; // the ring's own pointer swap
    if (const auto *d = dyn_cast<DeclStmt>(x))
      for (const Decl *y : d->decls())
        if (const auto *v = dyn_cast<VarDecl>(y); v && v->getInit() && v->getType()->isPointerType()) {
          bool swapped = (v == r.pass && r.passArray) || (v == r.got && r.gotArray); // followed as the array
          if (!swapped) keeps(v->getInit(), v->getInit());
        }
    if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->getOpcode() == BO_Assign && b->getType()->isPointerType())
      keeps(b->getRHS(), b);
  });
  if (!kept.empty()) {
    r.whyNot = kept;
    return;
  }
  // Memory the function does not own (a pointer it did not allocate, a
  // global) may be shared by two of the buffers; its own arrays cannot.
  std::set<const VarDecl *> foreign;
  for (const VarDecl *v : {r.acc, r.pass, r.got}) {
    bool own = v->hasLocalStorage() && !isa<ParmVarDecl>(v) &&
               (v->getType()->isArrayType() || !v->getType()->isPointerType() || isAllocation(v->getInit()) ||
                (v == r.pass && r.passArray) || (v == r.got && r.gotArray));
    if (!own) foreign.insert(v);
  }
  if (foreign.size() > 1 && !r.forwardsPartial) {
    std::string names;
    for (const VarDecl *v : foreign) names += (names.empty() ? "" : " and ") + name(v);
    r.review.push_back("the ring's buffers " + names + " are memory the function does not allocate: the patch "
                       "assumes they do not overlap, as the ring needs");
  }
  // The statements that run before the loop, from the innermost loop
  // around it (whose earlier passes leave unknown values) or the start.
  std::vector<const Stmt *> chain = chainOf(src, r.loop);
  size_t top = chain.size() - 1;
  for (size_t k = 1; k < chain.size(); k++)
    if (isLoop(chain[k])) {
      top = k - 1;
      break;
    }
  Values values(src, r, foreign);
  for (size_t k = top; k >= 1; k--) {
    if (const auto *block = dyn_cast<CompoundStmt>(chain[k])) {
      for (const Stmt *s : block->body()) {
        if (s == chain[k - 1]) break;
        values.run(s);
      }
    } else if (!isLoop(chain[k])) {
      // An if or switch around the loop: its condition runs first.
      for (const Stmt *c : chain[k]->children())
        if (c && c != chain[k - 1] && isa<Expr>(c)) values.run(c);
    }
  }
  if (values.of(r.acc) != values.of(r.pass))
    r.whyNot = "the ring combines what arrives into " + name(r.acc) + ", but it does not start from the value" +
               (r.array ? "s" : "") + " the ring sends first (" + name(r.pass) +
               (r.array ? ", all " + src.of(r.count) + " elements" : "") + "): not every value is combined once";
}

void checkRingLeftovers(const SourceText &src, RingCombine &r) {
  std::vector<const Stmt *> chain = chainOf(src, r.loop);
  const Stmt *outer = nullptr; // a loop around the ring's loop
  for (size_t k = 1; k < chain.size() && !outer; k++)
    if (isLoop(chain[k])) outer = chain[k];
  unsigned end = src.endOffset(r.loop);
  if (r.swapTemp) {
    // The swap's temporary keeps one of the buffers' addresses.
    const Stmt *outside = nullptr;
    forEachStmt(chain.back(), [&](const Stmt *x) {
      const auto *d = dyn_cast<DeclRefExpr>(x);
      unsigned at = d ? src.offset(d->getBeginLoc()) : 0;
      if (d && d->getDecl() == r.swapTemp && !outside && (at < src.offset(r.loop->getBeginLoc()) || at >= end))
        outside = x;
    });
    if (outside) {
      r.whyNot = "the ring swaps its buffers through " + name(r.swapTemp) + ", which the program uses at line " +
                 std::to_string(src.line(outside->getBeginLoc())) + ", outside the ring's loop";
      return;
    }
  }
  // Swapped pointers to the function's arrays: the arrays too end holding
  // other ranks' blocks.
  for (const VarDecl *v : {r.got, r.pass, r.gotArray, r.passArray}) {
    if (!v || v == r.acc || !r.whyNot.empty()) continue;
    std::string role = v == r.got || v == r.gotArray ? "receives" : "forwards";
    bool array = (v == r.pass && r.passArray) || (v == r.got && r.gotArray);
    if (!v->hasLocalStorage() || isa<ParmVarDecl>(v) ||
        (v->getType()->isPointerType() && !isAllocation(v->getInit()) && !array)) {
      r.whyNot = "the ring " + role + " blocks in " + name(v) + ", memory the function does not own: code " +
                 "elsewhere may read the block the ring leaves there, which MPI_Allreduce leaves as it was";
      return;
    }
    const Stmt *read = nullptr;
    std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
      if (!s || read || s == r.loop || isa<UnaryExprOrTypeTraitExpr>(s)) return;
      if (const auto *d = dyn_cast<CXXDeleteExpr>(s); d && referencedVar(d->getArgument()) == v) return;
      if (const auto *c = dyn_cast<CallExpr>(s)) {
        std::string n = calleeName(c);
        if (n == "free" && c->getNumArgs() == 1 && referencedVar(c->getArg(0)) == v) return;
        if ((n == "memcpy" || n == "memmove" || n == "memset") && c->getNumArgs() == 3 &&
            wholeBuffer(src, c->getArg(0)) == v) {
          for (unsigned a = 1; a < 3; a++) walk(c->getArg(a));
          return;
        }
      }
      if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign && referencedVar(b->getLHS()) == v) {
        walk(b->getRHS());
        return;
      }
      if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == v) {
        unsigned at = src.offset(d->getBeginLoc());
        bool inOuter = outer && at >= src.offset(outer->getBeginLoc()) && at < src.endOffset(outer);
        if (at >= end || inOuter) read = s;
        return;
      }
      for (const Stmt *c : s->children()) walk(c);
    };
    walk(chain.back());
    if (read)
      r.whyNot = "the ring leaves another rank's block in " + name(v) + ", which the program reads at line " +
                 std::to_string(src.line(read->getBeginLoc())) +
                 (src.offset(read->getBeginLoc()) < end ? " (in the next pass of the loop around the ring)" : "") +
                 "; MPI_Allreduce leaves it as it was";
  }
}

void checkRingSteps(const SourceText &src, RingCombine &r, const std::string &comm) {
  if (!r.whyNot.empty()) return;
  // The peers are evaluated like a reduce-scatter ring's indices.
  RingEvaluator ev(src);
  ev.readFunction(r.loop, comm);
  const std::set<const VarDecl *> &sizes = ev.sizes;
  // for (s = c0; s < size - k; s++) runs size - k - c0 times; <=, once more.
  auto proven = [&]() {
    const auto *f = dyn_cast<ForStmt>(r.loop);
    if (!f || !f->getInit() || !f->getCond() || !f->getInc()) return false;
    const VarDecl *s = nullptr;
    const Expr *start = nullptr;
    if (const auto *d = dyn_cast<DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
      s = dyn_cast<VarDecl>(d->getSingleDecl());
      start = s ? s->getInit() : nullptr;
    } else if (const auto *a = dyn_cast<BinaryOperator>(f->getInit()); a && a->getOpcode() == BO_Assign) {
      s = assignedVar(a), start = a->getRHS();
    }
    Expr::EvalResult c0, k;
    if (!s || !start || !start->EvaluateAsInt(c0, src.ctx)) return false;
    const auto *cond = dyn_cast<BinaryOperator>(strip(f->getCond()));
    if (!cond || (cond->getOpcode() != BO_LT && cond->getOpcode() != BO_LE) || referencedVar(cond->getLHS()) != s ||
        !isa<DeclRefExpr>(strip(cond->getLHS())))
      return false;
    const Expr *bound = strip(cond->getRHS());
    int64_t less = 0;
    if (const auto *b = dyn_cast<BinaryOperator>(bound); b && b->getOpcode() == BO_Sub) {
      if (!b->getRHS()->EvaluateAsInt(k, src.ctx)) return false;
      less = k.Val.getInt().getExtValue();
      bound = strip(b->getLHS());
    }
    const auto *sz = dyn_cast<DeclRefExpr>(bound);
    if (!sz || !sizes.count(dyn_cast<VarDecl>(sz->getDecl()))) return false;
    int64_t trips = -less - c0.Val.getInt().getExtValue() + (cond->getOpcode() == BO_LE ? 1 : 0);
    const auto *inc = dyn_cast<UnaryOperator>(f->getInc());
    if (trips != -1 || !inc || !inc->isIncrementOp() || referencedVar(inc->getSubExpr()) != s) return false;
    bool jumps = false;
    forEachStmt(f->getBody(), [&](const Stmt *x) {
      jumps = jumps || isa<BreakStmt>(x) || isa<ContinueStmt>(x) || assignedVar(x) == s;
      if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf && referencedVar(u) == s)
        jumps = true;
    });
    return !jumps;
  };
  // Each step goes to the next rank and comes from the previous one, at
  // every rank of a few sizes (or the other way round).
  bool next = true, previous = true;
  for (auto [me, p] : std::vector<std::pair<long, long>>{{0, 5}, {1, 5}, {4, 5}, {0, 3}, {2, 3}, {1, 2}, {6, 7}}) {
    long to = 0, from = 0;
    ev.me = me, ev.p = p;
    if (!r.sendPeer || !r.recvPeer || !ev.value(r.sendPeer, to) || !ev.value(r.recvPeer, from)) {
      next = previous = false;
      break;
    }
    next = next && to == (me + 1) % p && from == (me + p - 1) % p;
    previous = previous && to == (me + p - 1) % p && from == (me + 1) % p;
  }
  if (!next && !previous)
    r.review.push_back("the ring's neighbours (" + (r.sendPeer ? src.of(r.sendPeer) : std::string("several")) +
                       " and " + (r.recvPeer ? src.of(r.recvPeer) : std::string("several")) +
                       ") are not seen to be the next and the previous rank of " + comm +
                       ": check that every rank's block passes every rank once");
  if (!proven())
    r.review.push_back("the ring's loop (line " + std::to_string(src.line(r.loop->getBeginLoc())) +
                       ") is not seen to run P-1 steps, P the size of " + comm +
                       ": check that every rank's block passes every rank once");
}

} // namespace cz::rewrite
