// HalvingExchange.cpp: runs a recursive halving (and the doubling that
// may undo it) on paper, statement by statement (see HalvingExchange.h).
#include "HalvingExchange.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "clang/AST/Expr.h"

#include "AstQueries.h"
#include "RingCombine.h"
#include "RingEvaluator.h"
#include "RingReduceScatter.h"
#include "RingTwoPhase.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// What an element holds: how often each (rank, element) of the original
// buffers is combined in it, keyed rank * kStride + element. kUnset marks
// scratch memory nothing wrote.
using Content = std::map<long, int>;
constexpr long kStride = 1L << 20, kUnset = -1;

std::string line(const SourceText &src, const Stmt *s) { return "line " + std::to_string(src.line(s->getBeginLoc())); }

const Stmt *loopAround(const SourceText &src, const Expr *e) {
  for (const Stmt *p = parentStmt(src, e); p; p = parentStmt(src, p))
    if (isLoop(p)) return p;
  return nullptr;
}

bool within(const SourceText &src, const Expr *e, const Stmt *s) {
  unsigned at = src.offset(e->getBeginLoc());
  return at >= src.offset(s->getBeginLoc()) && at < src.endOffset(s);
}

// One side of a message as a rank evaluates it: a buffer, an offset in
// elements, a count and a peer.
struct Side {
  const VarDecl *buffer = nullptr;
  long offset = 0, count = 0, peer = 0;
  std::vector<Content> data; // a send's elements when it was posted
};

class Machine {
public:
  Machine(const SourceText &src, HalvingExchange &h, RingEvaluator &ev, const std::vector<MessageArgs> &sends,
          const std::vector<MessageArgs> &recvs)
      : src(src), h(h), ev(ev), sends(sends), recvs(recvs) {}

  bool refuse(const std::string &why) {
    if (h.whyNot.empty()) h.whyNot = why;
    return false;
  }

  // The loops at size p for every rank, from the state start gives.
  bool run(long p, const std::vector<const Stmt *> &loops, const std::map<const VarDecl *, const Expr *> &start) {
    P = p;
    env.assign(size_t(p), {});
    memory.assign(size_t(p), {});
    touched.assign(size_t(p), {});
    for (long q = 0; q < p; q++)
      for (const auto &[v, init] : start) {
        long x = 0;
        if (!at(q, init, x))
          return refuse("the halving's loop updates '" + v->getNameAsString() + "', whose value where it starts (" +
                        src.of(init) + ") is not an expression of the rank and the size the rewriter evaluates");
        env[size_t(q)][v] = x;
      }
    for (const Stmt *l : loops)
      if (!exec(l)) return false;
    return true;
  }

  // Element e of buffer v at rank q: what it holds at the end.
  const Content &element(long q, const VarDecl *v, long e) { return cell(q, v, e); }
  bool wasTouched(long q, long e) const { return touched[size_t(q)].count(e) > 0; }
  long lastTouched(long q) const { return touched[size_t(q)].empty() ? -1 : *touched[size_t(q)].rbegin(); }
  bool value(long q, const Expr *e, long &out) { return at(q, e, out); }
  // Block k (n elements) of acc at rank q holds every rank's elements once.
  bool holdsBlock(long q, long k, long n) {
    for (long e = k * n; e < k * n + n; e++) {
      Content want;
      for (long o = 0; o < P; o++) want[o * kStride + e] = 1;
      if (cell(q, h.acc, e) != want) return false;
    }
    return true;
  }

private:
  const SourceText &src;
  HalvingExchange &h;
  RingEvaluator &ev;
  const std::vector<MessageArgs> &sends, &recvs;
  long P = 0;
  std::vector<std::map<const VarDecl *, long>> env;
  std::vector<std::map<const VarDecl *, std::map<long, Content>>> memory;
  std::vector<std::set<long>> touched; // elements of acc sent or combined into
  std::vector<std::vector<Side>> posted, expected; // per rank: sends, receives not yet matched

  bool at(long q, const Expr *e, long &out) {
    ev.p = P, ev.me = q, ev.bound = env[size_t(q)];
    return ev.value(e, out);
  }

  Content &cell(long q, const VarDecl *v, long e) {
    auto &m = memory[size_t(q)][v];
    auto it = m.find(e);
    if (it != m.end()) return it->second;
    Content c;
    if (v == h.acc) c[q * kStride + e] = 1;
    else c[kUnset] = 1;
    return m[e] = c;
  }

  bool assign(const Expr *e) {
    e = strip(e);
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Comma)
      return assign(b->getLHS()) && assign(b->getRHS());
    const Expr *lhs = nullptr;
    const VarDecl *v = assignedVar(e, &lhs);
    if (!v || !v->getType()->isIntegerType())
      return refuse("the halving's loop does `" + src.of(e) + "` (" + line(src, e) + "), which the rewriter does "
                    "not follow (it runs integer assignments and the messages and combine step only)");
    for (long q = 0; q < P; q++) {
      long x = 0, old = env[size_t(q)].count(v) ? env[size_t(q)][v] : 0;
      bool ok = false;
      if (const auto *u = dyn_cast<UnaryOperator>(e)) {
        ok = env[size_t(q)].count(v) && (x = old + (u->isIncrementOp() ? 1 : -1), true);
      } else if (const auto *b = dyn_cast<CompoundAssignOperator>(e)) {
        long r = 0;
        ok = env[size_t(q)].count(v) && at(q, b->getRHS(), r) &&
             integerArithmetic(BinaryOperator::getOpForCompoundAssignment(b->getOpcode()), old, r, x);
      } else if (const auto *b = dyn_cast<BinaryOperator>(e)) {
        ok = at(q, b->getRHS(), x);
      }
      if (!ok)
        return refuse("the halving's loop does `" + src.of(e) + "` (" + line(src, e) + "), whose value the "
                      "rewriter cannot evaluate for rank " + std::to_string(q) + " at P = " + std::to_string(P));
      env[size_t(q)][v] = x;
    }
    return true;
  }

  bool declare(const DeclStmt *d) {
    for (const Decl *x : d->decls()) {
      const auto *v = dyn_cast<VarDecl>(x);
      if (!v) continue;
      // Requests and statuses: no index of the exchange.
      bool integer = v->getType()->isIntegerType();
      if (!integer && !mentions(d, {h.acc, h.got}) && !v->getType()->isPointerType()) continue;
      if (!integer || !v->getInit())
        return refuse("the halving's loop declares '" + v->getNameAsString() + "' (" + line(src, d) + "), " +
                      (v->getType()->isPointerType() ? "a pointer it chooses a buffer with in each round"
                                                     : "not an integer with a value") +
                      ": the rewriter follows integer indices into '" + h.acc->getNameAsString() + "' only");
      for (long q = 0; q < P; q++) {
        long x = 0;
        if (!at(q, v->getInit(), x))
          return refuse("the halving's loop sets '" + v->getNameAsString() + "' to " + src.of(v->getInit()) + " (" +
                        line(src, d) + "), which the rewriter cannot evaluate for rank " + std::to_string(q) +
                        " at P = " + std::to_string(P));
        env[size_t(q)][v] = x;
      }
    }
    return true;
  }

  // A site's side for rank q: its buffer (acc or the scratch buffer), the
  // offset into it, its count and its peer.
  bool side(long q, const MessageArgs &a, bool send, Side &out) {
    const Expr *offset = nullptr;
    out.buffer = blockOf(a.buffer, offset);
    if (!out.buffer) out.buffer = wholeBuffer(src, a.buffer), offset = nullptr;
    std::string what = send ? "sends from " : "receives into ";
    if (out.buffer != h.acc && (send || out.buffer != h.got))
      return refuse("the halving " + what + src.of(a.buffer) + " (" + line(src, a.buffer) + "), not a block of '" +
                    h.acc->getNameAsString() + "'" + (send ? "" : " or the scratch buffer '" + h.got->getNameAsString() + "'"));
    out.offset = 0;
    if ((offset && !at(q, offset, out.offset)) || !at(q, a.count, out.count) || !a.peer || !at(q, a.peer, out.peer))
      return refuse("the halving's offsets, counts or partners at " + line(src, a.buffer) + " (" + src.of(a.buffer) +
                    ", " + src.of(a.count) + ") are not expressions the rewriter evaluates for rank " +
                    std::to_string(q) + " at P = " + std::to_string(P));
    if (out.peer < 0 || out.peer >= P || out.peer == q || out.offset < 0 || out.count < 0 || out.count > 4096)
      return refuse("at P = " + std::to_string(P) + " rank " + std::to_string(q) + " exchanges " +
                    std::to_string(out.count) + " elements with rank " + std::to_string(out.peer) + " at offset " +
                    std::to_string(out.offset) + " (" + line(src, a.buffer) + "): not a partner in the communicator");
    if (send)
      for (long i = 0; i < out.count; i++) out.data.push_back(cell(q, out.buffer, out.offset + i));
    return true;
  }

  // The statement's sites, posted for every rank; matched once every rank
  // has posted as many receives as sends.
  bool message(const Stmt *s) {
    if (std::string under = conditionalMessage(src, s); !under.empty())
      return refuse("the halving's messages run under " + under + ": not every rank may exchange in every round, "
                    "which the evaluation assumes");
    posted.resize(size_t(P)), expected.resize(size_t(P));
    for (long q = 0; q < P; q++) {
      for (const MessageArgs &a : sends)
        if (within(src, a.buffer, s)) posted[size_t(q)].emplace_back(), side(q, a, true, posted[size_t(q)].back());
      for (const MessageArgs &a : recvs)
        if (within(src, a.buffer, s)) expected[size_t(q)].emplace_back(), side(q, a, false, expected[size_t(q)].back());
    }
    if (!h.whyNot.empty()) return false;
    // A completion call, or a send whose receive comes later: nothing to match yet.
    if (posted[0].empty() || posted[0].size() != expected[0].size()) return true;
    for (long q = 0; q < P; q++) {
      if (posted[size_t(q)].size() != 1 || expected[size_t(q)].size() != 1)
        return refuse("the halving posts several messages in one round: the rewriter pairs one send with one receive");
      const Side &in = expected[size_t(q)][0], &from = posted[size_t(in.peer)][0];
      if (from.peer != q || from.count != in.count)
        return refuse("at P = " + std::to_string(P) + " rank " + std::to_string(q) + " receives " +
                      std::to_string(in.count) + " elements from rank " + std::to_string(in.peer) + ", which sends " +
                      std::to_string(from.count) + " to rank " + std::to_string(from.peer));
    }
    for (long q = 0; q < P; q++) {
      const Side &in = expected[size_t(q)][0], &from = posted[size_t(in.peer)][0];
      for (long i = 0; i < in.count; i++) cell(q, in.buffer, in.offset + i) = from.data[size_t(i)];
      for (long i = 0; i < posted[size_t(q)][0].count; i++) touched[size_t(q)].insert(posted[size_t(q)][0].offset + i);
    }
    for (long q = 0; q < P; q++) posted[size_t(q)].clear(), expected[size_t(q)].clear();
    return true;
  }

  bool combine(const Stmt *s, const Combine &c) {
    if (!h.op.empty() && h.op != c.op)
      return refuse("the halving combines with " + h.op + " and with " + c.op + " (" + line(src, s) + ")");
    h.op = c.op;
    for (long q = 0; q < P; q++) {
      long k = 0, n = 0;
      if (!at(q, c.offset, k) || !at(q, c.elements, n) || k < 0 || n < 0 || n > 4096)
        return refuse("the halving's combine step (" + line(src, s) + ") combines into offset " + src.of(c.offset) +
                      " " + src.of(c.elements) + " elements, which the rewriter cannot evaluate for rank " +
                      std::to_string(q) + " at P = " + std::to_string(P));
      for (long i = 0; i < n; i++) {
        Content add = cell(q, h.got, i);
        Content &into = cell(q, h.acc, k + i);
        for (const auto &[origin, times] : add) into[origin] += times;
        touched[size_t(q)].insert(k + i);
      }
    }
    return true;
  }

  bool loop(const ForStmt *f) {
    if (f->getInit() && !(isa<DeclStmt>(f->getInit()) ? declare(cast<DeclStmt>(f->getInit()))
                                                      : assign(cast<Expr>(f->getInit()))))
      return false;
    if (!f->getCond() || !f->getInc())
      return refuse("the halving's loop (" + line(src, f) + ") has no condition or no step the rewriter runs");
    for (int round = 0;; round++) {
      long go0 = 0;
      for (long q = 0; q < P; q++) {
        long go = 0;
        if (!at(q, f->getCond(), go))
          return refuse("the halving's loop condition `" + src.of(f->getCond()) + "` (" + line(src, f) +
                        ") is not an expression the rewriter evaluates for rank " + std::to_string(q) +
                        " at P = " + std::to_string(P));
        if (q == 0) go0 = go != 0;
        else if ((go != 0) != go0)
          return refuse("at P = " + std::to_string(P) + " the halving's loop (" + line(src, f) +
                        ") runs another number of rounds on rank " + std::to_string(q) + " than on rank 0");
      }
      if (!go0) return true;
      if (round == 64) return refuse("the halving's loop (" + line(src, f) + ") runs more than 64 rounds");
      if (!exec(f->getBody()) || !assign(f->getInc())) return false;
    }
  }

  bool exec(const Stmt *s) {
    if (!h.whyNot.empty()) return false;
    if (const auto *c = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *x : c->body())
        if (!exec(x)) return false;
      return true;
    }
    if (isa<NullStmt>(s)) return true;
    if (const auto *d = dyn_cast<DeclStmt>(s)) return declare(d);
    if (Combine c; combineOf(src, s, h.acc, h.got, c)) return combine(s, c);
    if (const auto *f = dyn_cast<ForStmt>(s)) return loop(f);
    if (holdsMessage(s)) return message(s);
    if (const auto *e = dyn_cast<Expr>(s)) return assign(e);
    return refuse("the halving's loop does `" + src.of(s).substr(0, src.of(s).find('\n')) + "` (" + line(src, s) +
                  "), which the rewriter does not follow (it runs integer assignments and the messages and "
                  "combine step only)");
  }
};

// The block size candidates: factors of the sites' offsets and counts, and
// of the combine step's, that name nothing the loops change.
void blockCandidates(const Expr *e, const std::set<const VarDecl *> &changing, std::vector<const Expr *> &out) {
  if (!e) return;
  e = strip(e);
  if (!mentions(e, changing)) {
    out.push_back(e);
    return;
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Mul)
    blockCandidates(b->getLHS(), changing, out), blockCandidates(b->getRHS(), changing, out);
}

} // namespace

bool exchangesWithXorPartner(const std::vector<MessageArgs> &sends, const std::vector<MessageArgs> &recvs) {
  if (sends.empty() || sends.size() != recvs.size()) return false;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      const auto *b = a.peer ? dyn_cast<BinaryOperator>(strip(a.peer)) : nullptr;
      if (!b || b->getOpcode() != BO_Xor) return false;
    }
  return true;
}

HalvingExchange analyzeHalving(const SourceText &src, const std::vector<MessageArgs> &sends,
                               const std::vector<MessageArgs> &recvs, const std::string &comm, bool allreduce) {
  HalvingExchange h;
  size_t loops = allreduce ? 2 : 1;
  if (!exchangesWithXorPartner(sends, recvs) || sends.size() != loops) return h;
  std::vector<const Stmt *> order;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      const Stmt *l = loopAround(src, a.buffer);
      if (!l) return h;
      if (std::find(order.begin(), order.end(), l) == order.end()) order.push_back(l);
    }
  if (order.size() != loops) return h;
  std::sort(order.begin(), order.end(), [&](const Stmt *a, const Stmt *b) {
    return src.offset(a->getBeginLoc()) < src.offset(b->getBeginLoc());
  });
  h.found = true;
  h.first = order.front(), h.last = order.back();
  auto refuse = [&](const std::string &why) -> HalvingExchange & {
    if (h.whyNot.empty()) h.whyNot = why;
    return h;
  };
  if (loops == 2 && !followsDirectly(src, h.first, h.last))
    return refuse("the doubling loop at " + line(src, h.last) + " does not follow the halving loop at " +
                  line(src, h.first) + " directly: the call replacing both would drop or reorder what lies between");
  // The halving's send is a block of acc, its receive the scratch buffer.
  const MessageArgs *send = nullptr, *recv = nullptr;
  for (const MessageArgs &a : sends)
    if (within(src, a.buffer, h.first)) send = &a;
  for (const MessageArgs &a : recvs)
    if (within(src, a.buffer, h.first)) recv = &a;
  const Expr *offset = nullptr;
  h.acc = send ? blockOf(send->buffer, offset) : nullptr;
  h.got = recv ? wholeBuffer(src, recv->buffer) : nullptr;
  if (!h.acc)
    return refuse("the halving sends " + (send ? src.of(send->buffer) : std::string("nothing")) +
                  ", not a block of one buffer (`acc + give * n`) the rewriter can follow");
  std::string acc = "'" + h.acc->getNameAsString() + "'";
  if (!h.got || h.got == h.acc)
    return refuse("the halving receives into " + src.of(recv->buffer) + " (" + line(src, recv->buffer) + "), not " +
                  "a scratch buffer named whole that a combine step adds into " + acc + ": the combining operation "
                  "is not seen in the source");
  std::string got = "'" + h.got->getNameAsString() + "'";
  std::set<const VarDecl *> roundLocals;
  declaredIn(h.first, roundLocals);
  if (roundLocals.count(h.got))
    return refuse("the halving receives into " + got + ", a pointer each round sets anew (`" +
                  src.of(h.got->getInit() ? h.got->getInit() : recv->buffer) + "`, " + line(src, recv->buffer) +
                  "): the rewriter does not follow which buffer it names, so no combine step is shown to add what "
                  "arrives into " + acc);
  const Stmt *combineStep = nullptr;
  forEachStmt(h.first, [&](const Stmt *s) {
    Combine c;
    if (!combineStep && combineOf(src, s, h.acc, h.got, c)) combineStep = s;
  });
  if (!combineStep)
    return refuse("the halving's loop (" + line(src, h.first) + ") does not combine what arrives in " + got +
                  " into " + acc + " element by element with an MPI operation (`for (i = 0; i < n; i++) " +
                  h.acc->getNameAsString() + "[k + i] += " + h.got->getNameAsString() + "[i]`): the combining "
                  "operation is not found in the source");
  QualType elem = elementType(h.acc);
  if (!elem->isArithmeticType() || elementType(h.got) != elem)
    return refuse("the halving combines what arrives in " + got + " (" + elementType(h.got).getAsString() +
                  ") into " + acc + " (" + elem.getAsString() + "): the call combines in the messages' type only");

  // Where the loops start: the variables they update but do not declare
  // take their initializer, and nothing else writes them.
  RingEvaluator ev(src);
  ev.readFunction(h.first, comm);
  std::set<const VarDecl *> inside, changing;
  for (const Stmt *l : order) declaredIn(l, inside);
  std::map<const VarDecl *, const Expr *> start;
  for (const Stmt *l : order)
    forEachStmt(l, [&](const Stmt *x) {
      if (const VarDecl *v = assignedVar(x); v && !inside.count(v)) start[v] = v->getInit();
    });
  for (const auto &entry : start) {
    const VarDecl *v = entry.first;
    const Expr *init = entry.second;
    if (!init || !v->hasLocalStorage() || isa<ParmVarDecl>(v) || !v->getType()->isIntegerType())
      return refuse("the halving's loop updates '" + v->getNameAsString() + "', which starts from no initializer "
                    "the rewriter reads");
    int outside = 0;
    forEachStmt(outermostStmt(src, h.first), [&](const Stmt *x) {
      const auto *u = dyn_cast<UnaryOperator>(x);
      bool writes = assignedVar(x) == v || (u && u->getOpcode() == UO_AddrOf && referencedVar(u->getSubExpr()) == v);
      if (writes && !within(src, cast<Expr>(x), h.first) && !within(src, cast<Expr>(x), h.last)) outside++;
    });
    for (const Stmt *p = parentStmt(src, h.first); p && !outside; p = parentStmt(src, p))
      if (isLoop(p) && src.offset(v->getLocation()) < src.offset(p->getBeginLoc()))
        return refuse("'" + v->getNameAsString() + "', which the halving's loop updates, is declared outside the loop "
                      "at " + line(src, p) + " around it: from the second time on it does not start from its "
                      "initializer");
    if (outside)
      return refuse("'" + v->getNameAsString() + "', which the halving's loop updates, is also written elsewhere: "
                    "its value where the loop starts is not its initializer");
    changing.insert(v);
  }
  changing.insert(inside.begin(), inside.end());
  changing.insert(ev.ranks.begin(), ev.ranks.end());
  std::vector<const Expr *> candidates;
  Combine firstCombine;
  combineOf(src, combineStep, h.acc, h.got, firstCombine);
  for (const Expr *e : {offset, send->count, firstCombine.offset, firstCombine.elements})
    blockCandidates(e, changing, candidates);

  // Run at powers of two, keeping each size's end state.
  Machine m(src, h, ev, sends, recvs);
  static const std::vector<long> sizes = {2, 4, 8, 16};
  const Expr *block = nullptr;
  std::string mismatch;
  for (const Expr *c : candidates) {
    mismatch.clear();
    for (long p : sizes) {
      if (!m.run(p, order, start)) return h;
      for (long q = 0; q < p && mismatch.empty(); q++) {
        long n = 0;
        if (!m.value(q, c, n) || n <= 0) {
          mismatch = "no block size";
          break;
        }
        // The rank's block (allreduce: every block) holds every rank's element once.
        long lo = allreduce ? 0 : q * n, hi = allreduce ? p * n : q * n + n;
        for (long e = lo; e < hi && mismatch.empty(); e++) {
          Content want;
          for (long o = 0; o < p; o++) want[o * kStride + e] = 1;
          if (m.element(q, h.acc, e) != want)
            mismatch = "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " ends with element " +
                       std::to_string(e) + " of " + acc + " (in block " + std::to_string(e / n) + ") not holding every "
                       "rank's element " + std::to_string(e) + " combined once" +
                       (allreduce ? ", as MPI_Allreduce leaves every element of every rank"
                                  : ", as MPI_Reduce_scatter_block leaves rank i's block i");
        }
        if (!mismatch.empty() && !allreduce)
          for (long k = 0; k < p; k++)
            if (m.holdsBlock(q, k, n))
              mismatch = "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " ends with block " +
                         std::to_string(k) + " of " + acc + " holding every rank's block combined, but "
                         "MPI_Reduce_scatter_block leaves rank i block i: the program reads the result where the "
                         "halving left it, so the call cannot take its place";
        for (long e = 0; e < p * n && mismatch.empty(); e++)
          if (!m.wasTouched(q, e) && (allreduce || e / n != q))
            mismatch = "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " never sends element " +
                       std::to_string(e) + " of the " + std::to_string(p) + " blocks of " + std::to_string(n) +
                       " elements in " + acc;
        if (m.lastTouched(q) >= p * n)
          mismatch = "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " uses element " +
                     std::to_string(m.lastTouched(q)) + " of " + acc + ", beyond its " + std::to_string(p) +
                     " blocks of " + src.of(c) + " elements";
      }
      if (!mismatch.empty()) break;
    }
    if (mismatch.empty()) {
      block = c;
      break;
    }
  }
  if (!block)
    return refuse(mismatch.empty() || mismatch == "no block size"
                      ? "no expression among the halving's offsets and counts names the elements of one rank's "
                        "block the way every round uses them"
                      : mismatch);
  h.block = block;
  std::string shape = allreduce ? "the halving and doubling loops, run" : "the halving loop, run";
  h.notes.push_back(shape + " statement by statement for every rank at P = 2, 4, 8 and 16, leave" +
                    (allreduce ? " " : "s ") +
                    (allreduce ? "every rank with every block" : "rank i with block i") + " of " + acc + " (" +
                    src.of(block) + " elements) holding every rank's elements combined once (" + h.op + ")");
  // Other sizes: the original pairs ranks outside the communicator or
  // computes something else; the call computes the collective.
  if (!m.run(3, order, start))
    h.notes.push_back("the exchange works at sizes that are powers of two only (" + h.whyNot + "); at those "
                      "the call leaves the same result"),
        h.whyNot.clear();
  else
    h.review.push_back("at P = 3 the loops run without error but are not checked to leave the same result: "
                       "check the program runs at powers of two only");

  // Nothing read afterwards but what the call leaves as the loops did.
  for (const VarDecl *v : changing) {
    if (inside.count(v) || ev.ranks.count(v)) continue;
    unsigned end = src.endOffset(h.last);
    forEachStmt(outermostStmt(src, h.first), [&](const Stmt *x) {
      const auto *d = dyn_cast<DeclRefExpr>(x);
      if (d && d->getDecl() == v && src.offset(d->getBeginLoc()) >= end)
        refuse("the halving leaves '" + v->getNameAsString() + "' as its last round set it, and the program reads it "
               "at " + line(src, d) + "; the call would not set it");
    });
  }
  if (!h.whyNot.empty()) return h;
  if (allreduce) {
    if (std::string read = scratchReadAfter(src, h.got, h.first, h.last, "halving"); !read.empty()) return refuse(read);
    h.size = unchangedSize(src, ev, h.first);
    if (!h.size)
      return refuse("no variable holds the size of " + comm + " unchanged (MPI_Comm_size into it, written nowhere "
                    "else), which the call's count P * " + src.of(block) + " would name");
  } else {
    RingReduceScatter r;
    r.acc = h.acc, r.got = h.got, r.loop = h.first, r.count = block, r.shape = "halving";
    checkReduceScatterLeftovers(src, r, ev);
    if (!r.whyNot.empty()) return refuse(r.whyNot);
  }
  if (elem->isFloatingType() && (h.op == "MPI_SUM" || h.op == "MPI_PROD"))
    h.review.push_back("the halving combines in its own order; the call's order may round the floating-point "
                       "result differently");
  // Two allocations of the function's own, never pointed elsewhere, are
  // apart; anything else may overlap.
  bool repointed = false;
  forEachStmt(outermostStmt(src, h.first), [&](const Stmt *x) {
    const VarDecl *v = assignedVar(x);
    repointed = repointed || (v && (v == h.acc || v == h.got));
  });
  bool apart = ownsMemory(h.acc) && ownsMemory(h.got) && !repointed;
  if (!h.got->getType()->isArrayType() && !apart)
    h.review.push_back(got + " is a pointer: check that it does not overlap " + acc);
  if (!allreduce && !ownsMemory(h.acc))
    h.review.push_back(acc + " is memory the function does not own: code elsewhere may read its other blocks, "
                       "which the halving leaves holding partial results and MPI_Reduce_scatter_block leaves as "
                       "they were");
  return h;
}

} // namespace cz::rewrite
