// PrefixChain.cpp: runs the statements of a chain of ranks on paper and
// judges whether they leave a prefix reduction (see PrefixChain.h).
#include "PrefixChain.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <tuple>

#include "clang/AST/Expr.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "CombineStep.h"
#include "RingCombine.h"
#include "RingEvaluator.h"

namespace cz::rewrite {

using namespace clang;

namespace {

std::string line(const SourceText &src, const Stmt *s) { return "line " + std::to_string(src.line(s->getBeginLoc())); }
std::string quoted(const VarDecl *v) { return "'" + v->getNameAsString() + "'"; }

// What an element holds: the values elements had where the statements
// started (variable, rank, element), each combined how often, with one
// MPI_Op; or a constant of the source (`: 0`); or nothing known.
using Atom = std::tuple<const VarDecl *, long, long>;
struct Value {
  bool known = true, constant = false;
  long k = 0;
  std::string op; // "" for a single atom
  std::map<Atom, int> atoms;
  bool operator==(const Value &o) const {
    return known == o.known && constant == o.constant && k == o.k && op == o.op && atoms == o.atoms;
  }
};

Value unknown() { return Value{false}; }

// The identity of op: combining with it changes nothing.
bool identityOf(const std::string &op, long k) {
  if (op == "MPI_SUM" || op == "MPI_BOR" || op == "MPI_BXOR" || op == "MPI_LOR") return k == 0;
  if (op == "MPI_PROD" || op == "MPI_LAND") return k == 1;
  return op == "MPI_BAND" && k == -1;
}

Value combine(const Value &a, const Value &b, const std::string &op) {
  if (op.empty() || !a.known || !b.known) return unknown();
  if (a.constant) return identityOf(op, a.k) ? b : unknown();
  if (b.constant) return identityOf(op, b.k) ? a : unknown();
  if ((!a.op.empty() && a.op != op) || (!b.op.empty() && b.op != op)) return unknown();
  Value out = a;
  out.op = op;
  for (const auto &[atom, n] : b.atoms) out.atoms[atom] += n;
  return out;
}

// The element count's bound: buffers of more elements are not run.
constexpr long kMaxElements = 4096;

// The tag argument of a call's send or receive side.
const Expr *tagOf(const CallExpr *c, bool send) {
  std::string n = calleeName(c);
  unsigned at = 4;
  if (n == "MPI_Sendrecv" && !send) at = 9;
  if (n == "MPI_Sendrecv_replace" && !send) at = 6;
  return c->getNumArgs() > at ? c->getArg(at) : nullptr;
}

// An MPI_Request or MPI_Status: a handle held by value (a pointer in Open
// MPI), no buffer.
bool isHandle(const VarDecl *v) {
  std::string type = v->getType().getAsString();
  return type.find("MPI_Request") != std::string::npos || type.find("MPI_Status") != std::string::npos;
}

// A handle a call fills through `&x` (not `&ompi_mpi_int` behind MPI_INT).
const VarDecl *filledHandle(const Expr *arg) {
  const auto *u = dyn_cast<UnaryOperator>(strip(arg));
  const VarDecl *v = u && u->getOpcode() == UO_AddrOf ? referencedVar(u->getSubExpr()) : nullptr;
  return v && isHandle(v) ? v : nullptr;
}

const CallExpr *callOf(const SourceText &src, const Expr *arg) {
  for (const Stmt *p = parentStmt(src, arg); p; p = parentStmt(src, p))
    if (const auto *c = dyn_cast<CallExpr>(p)) return c;
  return nullptr;
}

struct Message {
  long tag = 0;
  std::vector<Value> data;
};

class Machine {
public:
  Machine(const SourceText &src, PrefixChain &c, RingEvaluator &ev, const std::vector<MessageArgs> &sends,
          const std::vector<MessageArgs> &recvs)
      : src(src), c(c), ev(ev) {
    for (const MessageArgs &a : sends) sites[callOf(src, a.buffer)].first = &a;
    for (const MessageArgs &a : recvs) sites[callOf(src, a.buffer)].second = &a;
  }

  bool refuse(const std::string &why) {
    if (c.whyNot.empty()) c.whyNot = why;
    return false;
  }

  // The statements at size p, rank after rank: a rank receives only what
  // ranks below it sent, so theirs have all run.
  bool run(long p, const std::vector<const Stmt *> &stmts) {
    P = p;
    memory.assign(size_t(p), {});
    queues.clear();
    for (long q = 0; q < p; q++) {
      me = q;
      env.clear();
      for (const Stmt *s : stmts)
        if (!exec(s, true)) return false;
    }
    for (const auto &[pair, queue] : queues)
      if (!queue.empty())
        return refuse("at P = " + std::to_string(p) + " rank " + std::to_string(pair.first) + " sends rank " +
                      std::to_string(pair.second) + " a message it never receives");
    return true;
  }

  // Element e of v at rank q where the statements end.
  Value at(long q, const VarDecl *v, long e) {
    auto &m = memory[size_t(q)];
    auto it = m.find(v);
    if (it == m.end() || !it->second.count(e)) return start(q, v, e);
    return it->second[e];
  }
  bool written(long q, const VarDecl *v) { return memory[size_t(q)].count(v) > 0; }
  long elements = 0; // of each buffer, the messages' count at this size
  std::string unknownOp; // the first expression combining with no MPI_Op the rewriter knows
  std::set<const VarDecl *> touched;   // variables the statements wrote
  std::set<const VarDecl *> counters;  // loop counters declared before the statements
  std::map<const VarDecl *, const Stmt *> declared; // declared among them

private:
  const SourceText &src;
  PrefixChain &c;
  RingEvaluator &ev;
  std::map<const CallExpr *, std::pair<const MessageArgs *, const MessageArgs *>> sites;
  long P = 0, me = 0;
  std::map<const VarDecl *, long> env; // integers the statements declare
  std::vector<std::map<const VarDecl *, std::map<long, Value>>> memory;
  std::map<std::pair<long, long>, std::deque<Message>> queues;

  Value start(long q, const VarDecl *v, long e) {
    if (declared.count(v)) return unknown(); // nothing written yet
    Value x;
    x.atoms[{v, q, e}] = 1;
    return x;
  }

  bool integer(const Expr *e, long &out) {
    ev.me = me, ev.p = P, ev.bound = env;
    return ev.value(e, out);
  }

  // `x` or `x[i]` of a buffer: the variable and the element.
  const VarDecl *element(const Expr *e, long &index) {
    e = strip(e);
    index = 0;
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
      const auto *d = dyn_cast<DeclRefExpr>(strip(a->getBase()));
      const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      return v && integer(a->getIdx(), index) && index >= 0 && index < elements ? v : nullptr;
    }
    const auto *d = dyn_cast<DeclRefExpr>(e);
    const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    bool integerName = env.count(v) || ev.ranks.count(v) || ev.sizes.count(v);
    return v && !integerName && v->getType()->isArithmeticType() ? v : nullptr;
  }

  Value opless(const Expr *e) {
    if (unknownOp.empty())
      unknownOp = "`" + src.of(e) + "` (" + line(src, e) + ")";
    return unknown();
  }

  Value eval(const Expr *e) {
    if (const auto *cast = dyn_cast<ExplicitCastExpr>(e->IgnoreParens());
        cast && cast->getType().getCanonicalType() != e->IgnoreParenCasts()->getType().getCanonicalType())
      return opless(e); // a conversion (truncation, rounding) the values do not follow
    e = strip(e);
    long k = 0, index = 0;
    if (const auto *cond = dyn_cast<ConditionalOperator>(e)) {
      if (!integer(cond->getCond(), k)) return opless(e);
      return eval(k ? cond->getTrueExpr() : cond->getFalseExpr());
    }
    if (const VarDecl *v = element(e, index)) return at(me, v, index);
    if (!mentionsBuffer(e) && integer(e, k)) {
      Value x;
      x.constant = true, x.k = k;
      return x;
    }
    if (const auto *b = dyn_cast<BinaryOperator>(e)) {
      if (mpiOpOf(b->getOpcode()).empty()) return opless(e);
      return combine(eval(b->getLHS()), eval(b->getRHS()), mpiOpOf(b->getOpcode()));
    }
    return opless(e);
  }

  bool mentionsBuffer(const Expr *e) {
    bool found = false;
    forEachStmt(e, [&](const Stmt *x) {
      const auto *d = dyn_cast<DeclRefExpr>(x);
      const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      if (v && !env.count(v) && !ev.ranks.count(v) && !ev.sizes.count(v) && !v->getType().isConstQualified() &&
          !isa<EnumConstantDecl>(d->getDecl()))
        found = true;
    });
    return found;
  }

  long stores = 0, work = 0;
  void store(const VarDecl *v, long e, const Value &x) {
    stores++;
    memory[size_t(me)][v][e] = x;
    touched.insert(v);
  }

  // An assignment `x[i] = ..`, `x op= ..` to a buffer element; integers the
  // statements declared are counters.
  bool assign(const Expr *e) {
    e = strip(e);
    const Expr *lhs = nullptr;
    const VarDecl *counter = assignedVar(e, &lhs);
    if (counter && env.count(counter)) {
      long x = 0;
      const auto *u = dyn_cast<UnaryOperator>(e);
      const auto *b = dyn_cast<BinaryOperator>(e);
      bool ok = (u && (x = env[counter] + (u->isIncrementOp() ? 1 : -1), true)) ||
                (b && b->getOpcode() == BO_Assign && integer(b->getRHS(), x));
      if (!ok) return refuse("the chain does `" + src.of(e) + "` (" + line(src, e) + "), which the rewriter cannot evaluate");
      env[counter] = x;
      return true;
    }
    const auto *b = dyn_cast<BinaryOperator>(e);
    long index = 0;
    const VarDecl *v = b && b->isAssignmentOp() ? element(b->getLHS(), index) : nullptr;
    if (!v)
      return refuse("the chain does `" + src.of(e) + "` (" + line(src, e) + "), which the rewriter does not follow "
                    "(it runs the messages, element assignments and copies of the buffers, and integer counters)");
    Value x = eval(b->getRHS());
    if (b->isCompoundAssignmentOp())
      x = combine(at(me, v, index), x, mpiOpOf(BinaryOperator::getOpForCompoundAssignment(b->getOpcode())));
    store(v, index, x);
    return true;
  }

  bool copy(const Stmt *s) {
    const VarDecl *from = nullptr, *to = copiedWhole(src, s, c.count, &from);
    if (!to) return false;
    for (long e = 0; e < elements; e++) store(to, e, at(me, from, e));
    return true;
  }

  bool message(const CallExpr *call) {
    auto it = sites.find(call);
    std::string n = calleeName(call);
    if (it == sites.end()) {
      if (isCompletionCall(n)) {
        for (unsigned a = 0; a < call->getNumArgs(); a++) // the statuses it fills
          if (const VarDecl *v = filledHandle(call->getArg(a))) touched.insert(v);
        return true;
      }
      return refuse("the chain calls " + (n.empty() ? std::string("a function") : n) + " (" + line(src, call) +
                    "), which is not one of its messages");
    }
    for (unsigned a = 0; a < call->getNumArgs(); a++) // requests and statuses it fills
      if (const VarDecl *v = filledHandle(call->getArg(a))) touched.insert(v);
    for (int side = 0; side < 2; side++) {
      const MessageArgs *m = side == 0 ? it->second.first : it->second.second;
      if (!m) continue;
      long peer = 0, tag = 0, count = 0;
      const Expr *tagExpr = tagOf(call, side == 0);
      if (!m->peer || !integer(m->peer, peer) || !tagExpr || !integer(tagExpr, tag) || !integer(m->count, count))
        return refuse("the chain's peer, tag or count at " + line(src, call) + " is not an expression the rewriter "
                      "evaluates for rank " + std::to_string(me) + " at P = " + std::to_string(P));
      const VarDecl *buf = wholeBuffer(src, m->buffer);
      if (!buf) return refuse("the chain's buffer " + src.of(m->buffer) + " (" + line(src, call) + ") is not a buffer named whole");
      if (count != elements)
        return refuse("the chain's messages carry different counts (" + src.of(m->count) + ", " + line(src, call) + ")");
      if (side == 0) {
        if (peer <= me || peer >= P)
          return refuse("at P = " + std::to_string(P) + " rank " + std::to_string(me) + " sends to rank " +
                        std::to_string(peer) + " (" + line(src, call) + "): not a rank above it, as a chain sends");
        Message msg{tag, {}};
        for (long e = 0; e < count; e++) msg.data.push_back(at(me, buf, e));
        queues[{me, peer}].push_back(msg);
        continue;
      }
      if (peer < 0 || peer >= me)
        return refuse("at P = " + std::to_string(P) + " rank " + std::to_string(me) + " receives from rank " +
                      std::to_string(peer) + " (" + line(src, call) + "): not a rank below it, as a chain receives");
      auto &queue = queues[{peer, me}];
      auto msg = std::find_if(queue.begin(), queue.end(), [&](const Message &x) { return x.tag == tag; });
      if (msg == queue.end())
        return refuse("at P = " + std::to_string(P) + " rank " + std::to_string(me) + " receives from rank " +
                      std::to_string(peer) + " a message it never sends (" + line(src, call) + ")");
      for (long e = 0; e < count; e++) store(buf, e, msg->data[size_t(e)]);
      queue.erase(msg);
    }
    return true;
  }

  // top: s is one of the statements run in sequence (a kid of a block), so
  // one that writes a buffer and holds no message is the call's own work.
  bool exec(const Stmt *s, bool top) {
    if (!c.whyNot.empty()) return false;
    if (++work > 1000000) return refuse("the chain's statements take more than a million steps to run on paper");
    long before = stores;
    bool ok = step(s);
    if (ok && top && stores != before && !holdsMessage(s)) c.steps.insert(s);
    return ok;
  }

  bool step(const Stmt *s) {
    if (const auto *b = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *x : b->body())
        if (!exec(x, true)) return false;
      return true;
    }
    if (isa<NullStmt>(s)) return true;
    if (const auto *d = dyn_cast<DeclStmt>(s)) {
      for (const Decl *x : d->decls()) {
        const auto *v = dyn_cast<VarDecl>(x);
        if (!v) continue;
        long k = 0;
        if (v->getType()->isIntegerType() && v->getInit() && integer(v->getInit(), k)) env[v] = k;
        else if (v->getInit()) return refuse("the chain declares '" + v->getNameAsString() + "' (" + line(src, d) + ") with a value the rewriter does not follow");
        else declared[v] = d;
      }
      return true;
    }
    if (const auto *i = dyn_cast<IfStmt>(s)) {
      long k = 0;
      if (i->getInit() || i->getConditionVariable() || !integer(i->getCond(), k))
        return refuse("the chain's condition `" + src.of(i->getCond()) + "` (" + line(src, i) + ") is not an "
                      "expression of the rank and the size the rewriter evaluates");
      const Stmt *branch = k ? i->getThen() : i->getElse();
      return !branch || exec(branch, false);
    }
    if (const auto *f = dyn_cast<ForStmt>(s)) {
      CountedLoop loop;
      long first = 0, last = 0;
      ev.me = me, ev.p = P, ev.bound = env;
      if (!countedLoop(f, loop) || !loopRange(ev, loop, first, last) || last - first > kMaxElements)
        return refuse("the chain's loop (" + line(src, f) + ") is not a counted loop whose bounds the rewriter "
                      "evaluates for rank " + std::to_string(me) + " at P = " + std::to_string(P));
      for (long k = first; k < last; k++) {
        env[loop.counter] = k;
        if (!exec(f->getBody(), false)) return false;
      }
      env.erase(loop.counter);
      // A counter declared before the loop is left at its bound, which the
      // call does not do: checked like the buffers the chain writes.
      if (!isa<DeclStmt>(f->getInit())) counters.insert(loop.counter);
      return true;
    }
    const auto *e = dyn_cast<Expr>(s);
    if (!e) return refuse("the chain does `" + src.of(s).substr(0, src.of(s).find('\n')) + "` (" + line(src, s) + "), which the rewriter does not follow");
    if (const auto *call = dyn_cast<CallExpr>(strip(e))) {
      if (copy(call)) return true;
      return message(call);
    }
    return assign(e);
  }
};

// The statements from the first holding a site to the last, in the
// innermost block holding them all.
std::vector<const Stmt *> chainStatements(const SourceText &src, const std::vector<const Expr *> &buffers) {
  for (const Stmt *p = parentStmt(src, buffers[0]); p; p = parentStmt(src, p)) {
    const auto *block = dyn_cast<CompoundStmt>(p);
    if (!block) continue;
    std::vector<const Stmt *> kids;
    bool all = true;
    for (const Expr *b : buffers) {
      unsigned at = src.offset(b->getBeginLoc());
      all = all && at >= src.offset(block->getBeginLoc()) && at < src.endOffset(block);
    }
    if (!all) continue;
    int first = -1, last = -1, i = 0;
    for (const Stmt *k : block->body()) {
      for (const Expr *b : buffers) {
        unsigned at = src.offset(b->getBeginLoc());
        if (at >= src.offset(k->getBeginLoc()) && at < src.endOffset(k)) {
          if (first < 0) first = i;
          last = i;
        }
      }
      kids.push_back(k), i++;
    }
    return std::vector<const Stmt *>(kids.begin() + first, kids.begin() + last + 1);
  }
  return {};
}

// A reference to v outside [begin, end) that runs after the statements:
// later in the function, or anywhere in a loop around them.
const Stmt *readAfter(const SourceText &src, const VarDecl *v, const Stmt *inner, unsigned begin, unsigned end) {
  const Stmt *loop = nullptr;
  for (const Stmt *p = parentStmt(src, inner); p && !loop; p = parentStmt(src, p))
    if (isLoop(p)) loop = p;
  const Stmt *found = nullptr;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s || found || isa<UnaryExprOrTypeTraitExpr>(s)) return;
    if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == v) {
      unsigned at = src.offset(d->getBeginLoc());
      // A variable declared in the loop starts anew in each pass.
      unsigned declaredAt = src.offset(v->getLocation());
      bool fresh = loop && declaredAt >= src.offset(loop->getBeginLoc()) && declaredAt < src.endOffset(loop);
      bool inLoop = loop && !fresh && at >= src.offset(loop->getBeginLoc()) && at < src.endOffset(loop);
      if ((at >= end || inLoop) && (at < begin || at >= end)) found = s;
    }
    for (const Stmt *c : s->children()) walk(c);
  };
  walk(outermostStmt(src, inner));
  return found;
}

} // namespace

PrefixChain analyzePrefixChain(const SourceText &src, const std::vector<MessageArgs> &sends,
                               const std::vector<MessageArgs> &recvs, const std::string &comm, bool exclusive) {
  PrefixChain c;
  if (sends.empty() || recvs.empty()) return c;
  std::vector<const Expr *> buffers;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      if (!a.valid() || !callOf(src, a.buffer)) return c;
      buffers.push_back(a.buffer);
    }
  std::vector<const Stmt *> stmts = chainStatements(src, buffers);
  if (stmts.empty()) return c;
  c.found = true;
  c.begin = src.offset(stmts.front()->getBeginLoc()), c.end = src.endOffset(stmts.back());
  c.firstLine = src.line(stmts.front()->getBeginLoc()), c.lastLine = src.line(stmts.back()->getEndLoc());
  c.count = sends[0].count;
  auto refuse = [&](const std::string &why) -> PrefixChain & {
    if (c.whyNot.empty()) c.whyNot = why;
    return c;
  };
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      if (squeeze(src.of(a.count)) != squeeze(src.of(c.count)))
        return refuse("the chain's messages name different counts (" + src.of(c.count) + ", " + src.of(a.count) + ")");
      if (squeeze(src.of(a.comm)) != squeeze(comm))
        return refuse("the chain's messages name different communicators (" + comm + ", " + src.of(a.comm) + ")");
    }

  RingEvaluator ev(src);
  ev.readFunction(stmts.front(), comm);
  // `MPI_Comm comm = MPI_COMM_WORLD;`, written nowhere else: the rank and
  // size queried on MPI_COMM_WORLD are comm's.
  if (const auto *d = dyn_cast<DeclRefExpr>(strip(sends[0].comm)); d && (ev.ranks.empty() || ev.sizes.empty()))
    if (const auto *v = dyn_cast<VarDecl>(d->getDecl()); v && v->getInit() && v->hasLocalStorage() && !ev.writes.count(v))
      ev.readFunction(stmts.front(), src.of(v->getInit()));
  if (ev.ranks.empty() || ev.sizes.empty())
    return refuse("no variable holds the rank and the size of " + comm + " (MPI_Comm_rank/MPI_Comm_size into it)");
  Machine m(src, c, ev, sends, recvs);
  // The candidates for the result: what the statements write that holds,
  // at every rank of every size, the elements of one buffer of every rank
  // (exclusive: every lower rank) combined once with one operation.
  std::map<const VarDecl *, int> shapes;   // bit 1 inclusive, bit 2 exclusive, at every size so far
  std::map<const VarDecl *, const VarDecl *> ownOf;
  std::map<const VarDecl *, std::string> opOf;
  std::map<const VarDecl *, bool> rank0Kept; // exclusive: rank 0 never writes it
  long most = 0;
  auto holds = [&](const VarDecl *v, int shape, long p, long n) {
    for (long q = shape == 2 ? 1 : 0; q < p; q++)
      for (long e = 0; e < n; e++) {
        Value x = m.at(q, v, e);
        if (!x.known || x.constant || x.atoms.empty()) return false;
        const VarDecl *own = std::get<0>(x.atoms.begin()->first);
        if (ownOf.count(v) && ownOf[v] != own) return false;
        ownOf[v] = own;
        long top = shape == 1 ? q : q - 1;
        if (long(x.atoms.size()) != top + 1) return false;
        for (long r = 0; r <= top; r++) {
          auto it = x.atoms.find({own, r, e});
          if (it == x.atoms.end() || it->second != 1) return false;
        }
        if (!x.op.empty() && !opOf[v].empty() && opOf[v] != x.op) return false;
        if (!x.op.empty()) opOf[v] = x.op;
      }
    return true;
  };
  // Twice over the sizes: the first run learns every variable the
  // statements write at some size, the second judges each at every size.
  for (int pass = 0; pass < 2; pass++)
  for (long p : ringSizes()) {
    long n = 0;
    ev.me = 0, ev.p = p, ev.bound.clear();
    if (!ev.value(c.count, n) || n <= 0 || n > kMaxElements)
      return refuse("the chain's count " + src.of(c.count) + " is not an expression the rewriter evaluates");
    most = std::max(most, n);
    m.elements = n;
    if (!m.run(p, stmts)) return c;
    if (pass == 0) continue;
    for (const VarDecl *v : m.touched) {
      if (m.declared.count(v)) continue;
      if (!shapes.count(v)) shapes[v] = 3;
      std::map<const VarDecl *, const VarDecl *> ownBefore = ownOf;
      std::map<const VarDecl *, std::string> opBefore = opOf;
      int now = 0;
      if ((shapes[v] & 1) && holds(v, 1, p, n)) now |= 1;
      else ownOf = ownBefore, opOf = opBefore;
      if (!now && (shapes[v] & 2) && holds(v, 2, p, n)) now |= 2;
      else if (!now) ownOf = ownBefore, opOf = opBefore;
      shapes[v] &= now;
      if (now == 2) rank0Kept[v] = (!rank0Kept.count(v) || rank0Kept[v]) && !m.written(0, v);
    }
  }
  // Memory the caller or other code reaches: read afterwards, as far as
  // the function shows.
  auto escapes = [](const VarDecl *v) {
    return !v->hasLocalStorage() || (v->getType()->isPointerType() && !isHandle(v));
  };
  std::vector<const VarDecl *> results;
  int wanted = exclusive ? 2 : 1;
  for (const auto &[v, shape] : shapes)
    if (shape & wanted) results.push_back(v);
  auto begin = c.begin, end = c.end;
  const Stmt *inner = stmts.front();
  if (results.size() > 1) { // the one the program reads afterwards
    std::vector<const VarDecl *> read;
    for (const VarDecl *v : results)
      if (escapes(v) || readAfter(src, v, inner, begin, end)) read.push_back(v);
    results = read;
  }
  if (results.empty() && !m.unknownOp.empty())
    return refuse("the chain combines with " + m.unknownOp + ", which is no MPI reduction operation the rewriter "
                  "reads (+, *, &, |, ^, &&, || with the identity where a rank has nothing to combine): no "
                  "buffer is shown to end holding a prefix, and no operation is known for the call");
  if (results.size() != 1)
    return refuse(results.empty() ? "no buffer ends holding, on every rank r, the values of ranks " +
                                        std::string(exclusive ? "0..r-1" : "0..r") + " of one buffer combined once "
                                        "with one MPI operation, run for every rank at P = " + ringSizesText()
                                  : "several buffers end holding the prefix and the program reads more than one "
                                    "afterwards");
  c.result = results[0];
  c.own = ownOf[c.result];
  c.exclusive = shapes[c.result] == 2;
  c.op = opOf[c.result];
  if (c.op.empty())
    return refuse("the chain combines no two values (P = 2 only?): no operation is seen in the source");
  std::string res = quoted(c.result), own = quoted(c.own);
  QualType elem = elementType(c.result);
  if (!elem->isArithmeticType() || elementType(c.own) != elem)
    return refuse("the chain combines " + own + " (" + elementType(c.own).getAsString() + ") into " + res + " (" +
                  elem.getAsString() + "): the call combines in the messages' type only");
  if (c.own != c.result && m.touched.count(c.own))
    return refuse("the chain writes " + own + ", which holds the rank's own value where it starts");
  if (elem->isFloatingType() && c.op != "MPI_SUM" && c.op != "MPI_PROD")
    return refuse("the chain combines floating-point values with " + c.op + ", which MPI defines for integer types only");
  // Values pass through every buffer unconverted: the symbolic values
  // follow no conversion.
  for (const VarDecl *v : m.touched) {
    if (!isHandle(v) && !m.declared.count(v) && elementType(v) != elem)
      return refuse("the chain moves values through " + quoted(v) + " (" + elementType(v).getAsString() + ") and " +
                    res + " (" + elem.getAsString() + "): the conversions between them are not followed");
  }
  // A buffer's address kept in a pointer: reads and writes through it are
  // not followed.
  const Stmt *fn = outermostStmt(src, inner);
  std::string kept;
  forEachStmt(fn, [&](const Stmt *x) {
    const Expr *value = nullptr;
    std::string into;
    if (const auto *d = dyn_cast<DeclStmt>(x); d && d->isSingleDecl())
      if (const auto *v = dyn_cast<VarDecl>(d->getSingleDecl()); v && v->getType()->isPointerType() && v->getInit())
        value = v->getInit(), into = v->getNameAsString();
    if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->getOpcode() == BO_Assign && b->getType()->isPointerType())
      value = b->getRHS(), into = src.of(b->getLHS());
    const VarDecl *v = value ? referencedVar(value) : nullptr;
    if (kept.empty() && v && m.touched.count(v) && !m.declared.count(v))
      kept = "the address of " + quoted(v) + " is kept in '" + into + "' (" + line(src, x) + "): reads and writes "
             "through it are not followed";
  });
  if (!kept.empty()) return refuse(kept);
  // What else the chain leaves behind: the call leaves it as it was.
  std::vector<const VarDecl *> touched(m.touched.begin(), m.touched.end());
  touched.insert(touched.end(), m.counters.begin(), m.counters.end());
  std::sort(touched.begin(), touched.end(), [&](const VarDecl *a, const VarDecl *b) {
    return src.offset(a->getLocation()) < src.offset(b->getLocation());
  });
  for (const VarDecl *v : touched) {
    if (v == c.result || m.declared.count(v)) continue;
    if (escapes(v)) {
      c.review.push_back("the chain writes " + quoted(v) + ", memory the function does not own: code elsewhere may "
                         "read what the chain leaves there, which the call leaves as it was");
      continue;
    }
    if (const Stmt *r = readAfter(src, v, inner, begin, end))
      c.review.push_back("the chain leaves " + quoted(v) + " as its messages and steps set it, and the program reads "
                         "it at " + line(src, r) + "; the call leaves it as it was");
    else if (const auto *a = src.ctx.getAsConstantArrayType(v->getType());
             v != c.own && !m.counters.count(v) && elementType(v) == elem && !c.rank0Scratch &&
             (a ? a->getSize().getZExtValue() >= size_t(most) : v->getType()->isArithmeticType() && most == 1))
      c.rank0Scratch = v; // room for the count's elements at every size run
    c.writes.insert(v);
  }
  c.writes.insert(c.result);
  if (escapes(c.result) && c.own != c.result)
    c.review.push_back(res + " is memory the function does not own: the patch assumes it does not overlap " + own);
  std::string call = c.exclusive ? "MPI_Exscan" : "MPI_Scan";
  if (c.exclusive && c.own != c.result && escapes(c.own))
    c.review.push_back("MPI_Exscan reads " + own + " on the last rank too, where the chain never reads it, and it is "
                       "memory the function does not own: check it holds " + src.of(c.count) + " elements there");
  Expr::EvalResult fixed;
  bool constantCount = !c.count->isValueDependent() && c.count->EvaluateAsInt(fixed, src.ctx);
  if (c.exclusive && (escapes(c.result) || readAfter(src, c.result, inner, begin, end))) {
    c.rank0Kept = rank0Kept[c.result];
    if (c.rank0Kept && c.own == c.result)
      c.rank0Unkept = "rank 0's " + res + " keeps its value through the chain and the program reads it afterwards, "
                      "but MPI_Exscan in place leaves rank 0's result undefined";
    else if (!c.rank0Kept)
      c.rank0Unkept = "the chain sets rank 0's " + res + " to a value the rewriter does not keep, and the program "
                      "reads it afterwards; MPI_Exscan leaves rank 0's result undefined";
    else if (c.rank0Scratch && !constantCount)
      c.rank0Unkept = "rank 0's " + res + " keeps its value through the chain and the program reads it afterwards, "
                      "but MPI_Exscan leaves rank 0's result undefined, and the count " + src.of(c.count) +
                      " is no constant, so no buffer is known to have room for it";
    else if (!c.rank0Scratch)
      c.rank0Unkept = "rank 0's " + res + " keeps its value through the chain and the program reads it afterwards, "
                      "but MPI_Exscan leaves rank 0's result undefined, and no buffer the chain writes and nothing "
                      "reads afterwards can take it";
    if (!c.rank0Unkept.empty()) c.review.push_back(c.rank0Unkept);
  } else {
    c.rank0Scratch = nullptr;
  }
  if (elem->isFloatingType() && (c.op == "MPI_SUM" || c.op == "MPI_PROD"))
    c.review.push_back("the chain combines in its own order; " + call + "'s order may round the floating-point "
                       "result differently");
  c.notes.push_back("the chain, run statement by statement for every rank at P = " + ringSizesText() + ", leaves " +
                    res + " on rank r holding " + own + " of ranks 0.." + (c.exclusive ? "r-1" : "r") +
                    " combined once (" + c.op + ")");
  return c;
}

} // namespace cz::rewrite
