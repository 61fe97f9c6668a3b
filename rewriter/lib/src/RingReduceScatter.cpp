// RingReduceScatter.cpp: reads a reduce-scatter ring's loop and runs its
// index arithmetic on paper (see RingReduceScatter.h).
#include "RingReduceScatter.h"

#include <functional>
#include <map>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "CombineStep.h"
#include "RingCombine.h"
#include "RingEvaluator.h"

namespace cz::rewrite {

using namespace clang;

// `acc + x`, `&acc[x]`: acc, with x the offset in elements.
const VarDecl *blockOf(const Expr *e, const Expr *&offset) {
  e = strip(e);
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Add && b->getLHS()->getType()->isPointerType()) {
    const auto *d = dyn_cast<DeclRefExpr>(strip(b->getLHS()));
    offset = b->getRHS();
    return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  }
  const auto *u = dyn_cast<UnaryOperator>(e);
  const auto *a = u && u->getOpcode() == UO_AddrOf ? dyn_cast<ArraySubscriptExpr>(strip(u->getSubExpr())) : nullptr;
  const auto *d = a ? dyn_cast<DeclRefExpr>(strip(a->getBase())) : nullptr;
  if (!d) return nullptr;
  offset = a->getIdx();
  return dyn_cast<VarDecl>(d->getDecl());
}

bool combineOf(const SourceText &src, const Stmt *s, const VarDecl *acc, const VarDecl *got, Combine &out) {
  CountedLoop loop;
  if (!countedLoop(s, loop)) return false;
  Expr::EvalResult zero;
  if (!loop.start->EvaluateAsInt(zero, src.ctx) || zero.Val.getInt() != 0 || loop.inclusive) return false;
  const Stmt *body = cast<ForStmt>(s)->getBody();
  if (const auto *c = dyn_cast<CompoundStmt>(body)) {
    if (c->size() != 1) return false;
    body = c->body_front();
  }
  const VarDecl *i = loop.counter;
  // acc[k + i] (k + i either way round): k; in[i]: true.
  auto accElement = [&](const Expr *e, const Expr *&k) {
    const auto *a = dyn_cast<ArraySubscriptExpr>(strip(e));
    if (!a || !varRef(a->getBase(), acc)) return false;
    const auto *sum = dyn_cast<BinaryOperator>(strip(a->getIdx()));
    if (!sum || sum->getOpcode() != BO_Add) return false;
    if (varRef(sum->getRHS(), i)) k = sum->getLHS();
    else if (varRef(sum->getLHS(), i)) k = sum->getRHS();
    else return false;
    return !mentions(k, {i});
  };
  auto gotElement = [&](const Expr *e) {
    const auto *a = dyn_cast<ArraySubscriptExpr>(strip(e));
    return a && varRef(a->getBase(), got) && varRef(a->getIdx(), i);
  };
  const auto *b = dyn_cast<BinaryOperator>(body);
  const Expr *k = nullptr, *k2 = nullptr;
  if (!b || !b->isAssignmentOp() || !accElement(b->getLHS(), k)) return false;
  if (b->isCompoundAssignmentOp()) {
    if (!gotElement(b->getRHS())) return false;
    out.op = mpiOpOf(b->getOpcode());
  } else {
    const auto *r = dyn_cast<BinaryOperator>(strip(b->getRHS()));
    if (!r) return false;
    bool accFirst = accElement(r->getLHS(), k2) && gotElement(r->getRHS());
    bool gotFirst = !accFirst && gotElement(r->getLHS()) && accElement(r->getRHS(), k2);
    if ((!accFirst && !gotFirst) || squeeze(src.of(k)) != squeeze(src.of(k2))) return false;
    out.op = mpiOpOf(r->getOpcode());
  }
  out.offset = k;
  out.elements = loop.bound;
  return !out.op.empty();
}

namespace {

bool isAllocation(const Expr *e) {
  e = strip(e);
  if (isa_and_nonnull<CXXNewExpr>(e)) return true;
  const auto *c = dyn_cast_or_null<CallExpr>(e);
  std::string n = c ? calleeName(c) : "";
  return n == "malloc" || n == "calloc" || n == "aligned_alloc";
}

std::string line(const SourceText &src, const Stmt *s) { return "line " + std::to_string(src.line(s->getBeginLoc())); }

class Reader {
public:
  Reader(const SourceText &src, RingReduceScatter &r, RingEvaluator &ev) : src(src), r(r), ev(ev) {}

  RingReduceScatter &refuse(const std::string &why) {
    if (r.whyNot.empty()) r.whyNot = why;
    return r;
  }

  // Runs the ring at size p for every rank: false (and whyNot) when it is
  // not a reduce-scatter with rank i ending with block i.
  bool runAt(long p, const MessageArgs &send, const MessageArgs &recv, const Expr *sendOffset,
             const Combine &combine, const CountedLoop &steps) {
    std::string acc = "'" + r.acc->getNameAsString() + "'";
    // content[rank][block][o * P + j]: how often rank o's block j is
    // combined in (a block combined into another index than it was sent
    // from counts as that other block, not as the one it lands on).
    const size_t np = static_cast<size_t>(p);
    std::vector<std::vector<std::vector<int>>> content(np, std::vector<std::vector<int>>(np));
    for (long q = 0; q < p; q++)
      for (long k = 0; k < p; k++)
        content[size_t(q)][size_t(k)].assign(np * np, 0), content[size_t(q)][size_t(k)][size_t(q) * np + size_t(k)] = 1;
    ev.p = p;
    long first = 0, last = 0;
    ev.me = 0;
    if (!loopRange(ev, steps, first, last))
      return refuse("the ring's loop bounds (" + src.of(steps.start) + ", " + src.of(steps.bound) +
                    ") are not expressions of the size the rewriter can evaluate"), false;
    if (last - first > 64) return refuse("the ring's loop runs more than 64 steps at P = " + std::to_string(p)), false;
    for (long s = first; s < last; s++) {
      ev.bound[steps.counter] = s;
      std::vector<long> to(np), from(np), out(np), into(np);
      for (long q = 0; q < p; q++) {
        ev.me = q;
        long n = 0, off = 0, cOff = 0;
        if (!ev.value(r.count, n) || n <= 0 || !ev.value(send.peer, to[size_t(q)]) ||
            !ev.value(recv.peer, from[size_t(q)]) || !ev.value(sendOffset, off) || !ev.value(combine.offset, cOff))
          return refuse("the ring's neighbours (" + src.of(send.peer) + ", " + src.of(recv.peer) +
                        ") or block offsets (" + src.of(sendOffset) + ", " + src.of(combine.offset) +
                        ") are not expressions of the rank, the size and the step that the rewriter can "
                        "evaluate"), false;
        if (off % n || cOff % n || off < 0 || cOff < 0 || off / n >= p || cOff / n >= p || to[size_t(q)] < 0 ||
            to[size_t(q)] >= p || from[size_t(q)] < 0 || from[size_t(q)] >= p)
          return refuse("at P = " + std::to_string(p) + " rank " + std::to_string(q) + " step " + std::to_string(s) +
                        " addresses a place that is not one of the P blocks of " + acc + " or a rank outside " +
                        "the communicator"), false;
        out[size_t(q)] = off / n, into[size_t(q)] = cOff / n;
      }
      std::vector<std::vector<int>> sent(np);
      for (long q = 0; q < p; q++) {
        if (from[size_t(to[size_t(q)])] != q)
          return refuse("at P = " + std::to_string(p) + " rank " + std::to_string(q) + " sends to rank " +
                        std::to_string(to[size_t(q)]) + ", which receives from another rank in that step"), false;
        sent[size_t(q)] = content[size_t(q)][size_t(out[size_t(q)])];
      }
      for (long q = 0; q < p; q++) {
        std::vector<int> &block = content[size_t(q)][size_t(into[size_t(q)])];
        for (size_t o = 0; o < np * np; o++) block[o] += sent[size_t(from[size_t(q)])][o];
      }
    }
    ev.bound.erase(steps.counter);
    for (long q = 0; q < p; q++) {
      auto whole = [&](long k) {
        const std::vector<int> &b = content[size_t(q)][size_t(k)];
        for (size_t o = 0; o < b.size(); o++)
          if (b[o] != (long(o % np) == k ? 1 : 0)) return false;
        return true;
      };
      if (whole(q)) continue;
      for (long k = 0; k < p; k++)
        if (whole(k))
          return refuse("at P = " + std::to_string(p) + " rank " + std::to_string(q) + " ends with block " +
                        std::to_string(k) + " of " + acc + " holding every rank's block combined, but "
                        "MPI_Reduce_scatter_block leaves rank i block i: the program reads the result "
                        "where the ring left it, so the call cannot take its place"), false;
      return refuse("at P = " + std::to_string(p) + " rank " + std::to_string(q) +
                    " ends with no block k of " + acc + " holding every rank's block k combined once: no "
                    "reduce-scatter"), false;
    }
    return true;
  }

  // After the ring (and in a loop around it) the program reads of acc
  // only the block the rank ends with, and nothing of got.
  void checkLeftovers() {
    const Stmt *fn = r.loop;
    const Stmt *outer = nullptr;
    for (const Stmt *p = parentStmt(src, r.loop); p; p = parentStmt(src, p)) {
      if (!outer && isLoop(p)) outer = p;
      fn = p;
    }
    unsigned begin = src.offset(r.loop->getBeginLoc()), end = src.endOffset(r.loop);
    auto after = [&](const Stmt *s) {
      unsigned at = src.offset(s->getBeginLoc());
      bool inOuter = outer && at >= src.offset(outer->getBeginLoc()) && at < src.endOffset(outer);
      return at >= end || (inOuter && (at < begin || at >= end));
    };
    std::string accName = "'" + r.acc->getNameAsString() + "'", gotName = "'" + r.got->getNameAsString() + "'";
    std::vector<const ForStmt *> loops; // the counted loops around the walk's position
    std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
      if (!s || !r.whyNot.empty() || s == r.loop || isa<UnaryExprOrTypeTraitExpr>(s)) return;
      if (const auto *c = dyn_cast<CallExpr>(s)) {
        std::string n = calleeName(c);
        if (n == "free" && c->getNumArgs() == 1 && (referencedVar(c->getArg(0)) == r.acc || referencedVar(c->getArg(0)) == r.got))
          return;
      }
      if (const auto *d = dyn_cast<CXXDeleteExpr>(s); d && referencedVar(d->getArgument()) == r.acc) return;
      if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign) {
        // A plain store is no read: acc[x] = ..., in[x] = ...
        const auto *a = dyn_cast<ArraySubscriptExpr>(strip(b->getLHS()));
        const VarDecl *v = a ? referencedVar(a->getBase()) : nullptr;
        if (v == r.acc || v == r.got) {
          walk(a->getIdx());
          walk(b->getRHS());
          return;
        }
      }
      if (const auto *a = dyn_cast<ArraySubscriptExpr>(s); a && varRef(a->getBase(), r.acc) && after(s)) {
        if (!ownBlock(a->getIdx(), loops))
          refuse("the " + r.shape + " leaves partial results in the other blocks of " + accName + ", and the program reads " +
                 src.of(a) + " at " + line(src, a) + ", which is not seen to lie in the block the rank ends with "
                 "(MPI_Reduce_scatter_block leaves the other blocks as they were)");
        walk(a->getIdx());
        return;
      }
      if (const auto *d = dyn_cast<DeclRefExpr>(s); d && after(s)) {
        if (d->getDecl() == r.got)
          refuse("the " + r.shape + " leaves the last block it received in " + gotName + ", which the program reads at " +
                 line(src, d) + "; the patch receives the result there");
        else if (d->getDecl() == r.acc)
          refuse("the program uses " + accName + " at " + line(src, d) + " after the " + r.shape + " (" + src.of(d) +
                 ") otherwise than by reading an element of the block the rank ends with");
        return;
      }
      const auto *f = dyn_cast<ForStmt>(s);
      if (f) loops.push_back(f);
      for (const Stmt *c : s->children()) walk(c);
      if (f) loops.pop_back();
    };
    walk(fn);
  }

private:
  const SourceText &src;
  RingReduceScatter &r;
  RingEvaluator &ev;

  // idx lies in [me * n, me * n + n) for every rank at the sizes tried,
  // with each counted loop around it at its first and last value.
  bool ownBlock(const Expr *idx, const std::vector<const ForStmt *> &loops) {
    std::vector<CountedLoop> counted;
    for (const ForStmt *f : loops) {
      CountedLoop c;
      if (countedLoop(f, c) && mentions(idx, {c.counter})) counted.push_back(c);
    }
    for (long p : ringSizes())
      for (long q = 0; q < p; q++) {
        ev.p = p, ev.me = q;
        long n = 0;
        if (!ev.value(r.count, n)) return false;
        // Every combination of first and last values of the counters.
        for (size_t corner = 0; corner < (size_t(1) << counted.size()); corner++) {
          for (size_t k = 0; k < counted.size(); k++) {
            long a = 0, b = 0;
            if (!ev.value(counted[k].start, a) || !ev.value(counted[k].bound, b)) return false;
            if (!counted[k].inclusive) b--;
            if (b < a) return false;
            ev.bound[counted[k].counter] = (corner >> k) & 1 ? b : a;
          }
          long at = 0;
          bool ok = ev.value(idx, at) && at >= q * n && at < q * n + n;
          for (const CountedLoop &c : counted) ev.bound.erase(c.counter);
          if (!ok) return false;
        }
      }
    return true;
  }
};

} // namespace

bool ownsMemory(const VarDecl *v) {
  return v->hasLocalStorage() && !isa<ParmVarDecl>(v) && (v->getType()->isArrayType() || isAllocation(v->getInit()));
}

void checkReduceScatterLeftovers(const SourceText &src, RingReduceScatter &r, RingEvaluator &ev) {
  Reader(src, r, ev).checkLeftovers();
}

RingReduceScatter analyzeReduceScatterRing(const SourceText &src, const std::vector<MessageArgs> &sends,
                                           const std::vector<MessageArgs> &recvs, const std::string &comm,
                                           bool firstPhaseOnly) {
  RingReduceScatter r;
  if (sends.size() != 1 || recvs.size() != 1) return r;
  const Expr *sendOffset = nullptr;
  r.acc = blockOf(sends[0].buffer, sendOffset);
  r.got = wholeBuffer(src, recvs[0].buffer);
  if (!r.acc || !r.got || r.acc == r.got) return r;
  for (const Stmt *p = parentStmt(src, recvs[0].buffer); p && !r.loop; p = parentStmt(src, p))
    if (isLoop(p)) r.loop = p;
  if (!r.loop || src.offset(sends[0].buffer->getBeginLoc()) < src.offset(r.loop->getBeginLoc()) ||
      src.offset(sends[0].buffer->getBeginLoc()) >= src.endOffset(r.loop))
    return r;
  r.found = true;
  r.count = sends[0].count;
  RingEvaluator ev(src);
  Reader reader(src, r, ev);
  std::string acc = "'" + r.acc->getNameAsString() + "'", got = "'" + r.got->getNameAsString() + "'";
  std::set<const VarDecl *> stepLocals;
  declaredIn(r.loop, stepLocals);
  if (mentions(r.count, stepLocals))
    return reader.refuse("the ring's blocks have counts that change from step to step (" + src.of(r.count) +
                         "): blocks of unequal size are MPI_Reduce_scatter with a recvcounts array, which also "
                         "needs the blocks in rank order one after another in " + acc + "; the rewriter does not "
                         "prove that layout: replace the ring by hand");
  if (squeeze(src.of(recvs[0].count)) != squeeze(src.of(r.count)))
    return reader.refuse("the ring sends " + src.of(r.count) + " elements and receives " + src.of(recvs[0].count));
  if (!sends[0].peer || !recvs[0].peer) return reader.refuse("the ring's neighbours are not named at its sites");
  QualType elem = elementType(r.acc);
  if (!elem->isArithmeticType() || elementType(r.got) != elem)
    return reader.refuse("the ring combines what arrives in " + got + " (" + elementType(r.got).getAsString() +
                         ") into " + acc + " (" + elem.getAsString() + "): MPI_Reduce_scatter_block combines in "
                         "the type of the messages only");

  // The loop: counted over the steps; its body the messages, then one
  // combine step, and nothing else touching the buffers.
  CountedLoop steps;
  if (!countedLoop(r.loop, steps))
    return reader.refuse("the ring's loop (" + line(src, r.loop) + ") is not a counted for loop the rewriter reads");
  const Stmt *body = cast<ForStmt>(r.loop)->getBody();
  std::vector<const Stmt *> kids;
  if (const auto *c = dyn_cast<CompoundStmt>(body)) kids.assign(c->body_begin(), c->body_end());
  else kids.push_back(body);
  Combine combine;
  int combines = 0;
  bool messagesDone = false;
  for (const Stmt *s : kids) {
    if (holdsMessage(s)) {
      if (messagesDone) return reader.refuse("the ring's loop sends again after it combined (" + line(src, s) + ")");
      // The evaluation runs every message for every rank in every step.
      if (std::string under = conditionalMessage(src, s); !under.empty())
        return reader.refuse("the ring's messages run under " + under + ": not every rank may send and receive "
                             "in every step, which the evaluation of the ring assumes");
      continue;
    }
    if (isa<DeclStmt>(s) && !mentions(s, {r.acc, r.got})) continue;
    Combine c;
    if (combineOf(src, s, r.acc, r.got, c)) {
      combine = c, combines++, messagesDone = true, r.combineStep = s;
      continue;
    }
    if (mentions(s, {r.acc, r.got}))
      return reader.refuse("the ring's loop does `" + src.of(s) + "` (" + line(src, s) + ") with its buffers, which is "
                           "not an element-wise MPI reduction operation of what arrives in " + got + " into a block "
                           "of " + acc + " (`for (i = 0; i < n; i++) " + r.acc->getNameAsString() + "[k + i] += " +
                           r.got->getNameAsString() + "[i]`)");
  }
  if (combines != 1)
    return reader.refuse(combines ? "the ring combines into " + acc + " more than once per step"
                                  : "the ring's loop does not combine what arrives in " + got + " into a block of " + acc);
  r.op = combine.op;
  Expr::EvalResult a, b;
  bool sameCount = squeeze(src.of(combine.elements)) == squeeze(src.of(r.count)) ||
                   (combine.elements->EvaluateAsInt(a, src.ctx) && r.count->EvaluateAsInt(b, src.ctx) &&
                    a.Val.getInt() == b.Val.getInt());
  if (!sameCount)
    return reader.refuse("the ring combines " + src.of(combine.elements) + " elements of each block, but its messages "
                         "carry " + src.of(r.count));
  if (elem->isFloatingType() && r.op != "MPI_SUM" && r.op != "MPI_PROD" && r.op != "MPI_MAX" && r.op != "MPI_MIN")
    return reader.refuse("the ring combines floating-point values with " + r.op + ", which MPI defines for integer "
                         "types only");

  r.sendOffset = sendOffset, r.combineOffset = combine.offset;
  if (firstPhaseOnly) return r;
  // The rank, the size and what else the indices read.
  ev.readFunction(r.loop, comm);
  for (long p : ringSizes())
    if (!reader.runAt(p, sends[0], recvs[0], sendOffset, combine, steps)) return r;
  r.notes.push_back("the ring's index arithmetic, run for every rank at P = " + ringSizesText() + ", leaves rank i with "
                    "block i of " + acc + " holding every rank's block combined once (" + r.op + ")");
  reader.checkLeftovers();
  if (!r.whyNot.empty()) return r;
  if (!ownsMemory(r.acc))
    r.review.push_back(acc + " is memory the function does not own: code elsewhere may read its other blocks, "
                       "which the ring leaves holding partial results and MPI_Reduce_scatter_block leaves as they were");
  if (!r.got->getType()->isArrayType())
    r.review.push_back(got + " is a pointer: check that it does not overlap " + acc +
                       " (MPI_Reduce_scatter_block receives the result there)");
  if (elem->isFloatingType() && (r.op == "MPI_SUM" || r.op == "MPI_PROD"))
    r.review.push_back("the ring combines in its own order; MPI_Reduce_scatter_block's order may round the "
                       "floating-point result differently");
  return r;
}

} // namespace cz::rewrite
