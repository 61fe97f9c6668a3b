// RingTwoPhase.cpp: reads the two loops of a ring allreduce and runs them
// on paper (see RingTwoPhase.h).
#include "RingTwoPhase.h"

#include <functional>
#include <set>

#include "clang/AST/Expr.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "RingCombine.h"
#include "RingEvaluator.h"
#include "RingReduceScatter.h"

namespace cz::rewrite {

using namespace clang;

namespace {

const Stmt *loopAround(const SourceText &src, const Expr *e) {
  for (const Stmt *p = parentStmt(src, e); p; p = parentStmt(src, p))
    if (isLoop(p)) return p;
  return nullptr;
}

std::string line(const SourceText &src, const Stmt *s) { return "line " + std::to_string(src.line(s->getBeginLoc())); }

// One loop of the ring as the evaluation sees it: its messages' neighbours
// and the offsets of the block sent and the block received (phase 1:
// combined into).
struct Phase {
  const Stmt *loop = nullptr;
  CountedLoop steps;
  const Expr *to = nullptr, *from = nullptr, *sendOffset = nullptr, *recvOffset = nullptr;
  bool combines = false; // else the arriving block replaces the one there
};

// A block's content: how often rank o's block of index k is combined in
// it, at o * P + k.
using Block = std::vector<int>;

class Runner {
public:
  Runner(const SourceText &src, TwoPhaseRing &t, RingEvaluator &ev) : src(src), t(t), ev(ev) {}

  bool refuse(const std::string &why) {
    if (t.whyNot.empty()) t.whyNot = why;
    return false;
  }

  // Both loops at size p for every rank: false (and whyNot) unless every
  // rank ends with every block k holding every rank's block k once.
  bool runAt(long p, const Phase &first, const Phase &second) {
    const size_t np = size_t(p);
    std::vector<std::vector<Block>> content(np, std::vector<Block>(np, Block(np * np, 0)));
    for (size_t q = 0; q < np; q++)
      for (size_t k = 0; k < np; k++) content[q][k][q * np + k] = 1;
    ev.p = p;
    if (!runPhase(p, first, content) || !runPhase(p, second, content)) return false;
    std::string acc = "'" + t.acc->getNameAsString() + "'";
    for (size_t q = 0; q < np; q++)
      for (size_t k = 0; k < np; k++)
        for (size_t o = 0; o < np * np; o++)
          if (content[q][k][o] != (o % np == k ? 1 : 0))
            return refuse("at P = " + std::to_string(p) + " rank " + std::to_string(q) + " ends with block " +
                          std::to_string(k) + " of " + acc + " not holding every rank's block " +
                          std::to_string(k) + " combined once (rank " + std::to_string(o / np) + "'s block " +
                          std::to_string(o % np) + " is in it " + std::to_string(content[q][k][o]) +
                          " times): MPI_Allreduce leaves every block of every rank so");
    return true;
  }

private:
  const SourceText &src;
  TwoPhaseRing &t;
  RingEvaluator &ev;

  bool runPhase(long p, const Phase &ph, std::vector<std::vector<Block>> &content) {
    const size_t np = size_t(p);
    std::string acc = "'" + t.acc->getNameAsString() + "'", at = "at P = " + std::to_string(p);
    long first = 0, last = 0;
    ev.me = 0;
    if (!loopRange(ev, ph.steps, first, last))
      return refuse("the bounds of the loop at " + line(src, ph.loop) + " (" + src.of(ph.steps.start) + ", " +
                    src.of(ph.steps.bound) + ") are not expressions of the size the rewriter can evaluate");
    if (last - first > 64) return refuse("the loop at " + line(src, ph.loop) + " runs more than 64 steps " + at);
    for (long s = first; s < last; s++) {
      ev.bound[ph.steps.counter] = s;
      std::vector<long> to(np), from(np), out(np), into(np);
      for (size_t q = 0; q < np; q++) {
        ev.me = long(q);
        long n = 0, off = 0, inOff = 0;
        if (!ev.value(t.count, n) || n <= 0 || !ev.value(ph.to, to[q]) || !ev.value(ph.from, from[q]) ||
            !ev.value(ph.sendOffset, off) || !ev.value(ph.recvOffset, inOff))
          return refuse("the neighbours (" + src.of(ph.to) + ", " + src.of(ph.from) + ") or block offsets (" +
                        src.of(ph.sendOffset) + ", " + src.of(ph.recvOffset) + ") of the loop at " +
                        line(src, ph.loop) + " are not expressions of the rank, the size and the step that the "
                        "rewriter can evaluate");
        if (off % n || inOff % n || off < 0 || inOff < 0 || off / n >= p || inOff / n >= p || to[q] < 0 ||
            to[q] >= p || from[q] < 0 || from[q] >= p)
          return refuse(at + " rank " + std::to_string(q) + " step " + std::to_string(s) + " of the loop at " +
                        line(src, ph.loop) + " addresses a place that is not one of the P blocks of " + acc +
                        " or a rank outside the communicator");
        out[q] = off / n, into[q] = inOff / n;
        if (!ph.combines && out[q] == into[q])
          return refuse(at + " rank " + std::to_string(q) + " step " + std::to_string(s) + " of the loop at " +
                        line(src, ph.loop) + " sends and receives the same block of " + acc);
      }
      std::vector<Block> sent(np);
      for (size_t q = 0; q < np; q++) {
        if (from[size_t(to[q])] != long(q))
          return refuse(at + " rank " + std::to_string(q) + " sends to rank " + std::to_string(to[q]) + " in the "
                        "loop at " + line(src, ph.loop) + ", which receives from another rank in that step");
        sent[q] = content[q][size_t(out[q])];
      }
      for (size_t q = 0; q < np; q++) {
        Block &b = content[q][size_t(into[q])];
        const Block &arrived = sent[size_t(from[q])];
        if (!ph.combines) b = arrived;
        else
          for (size_t o = 0; o < b.size(); o++) b[o] += arrived[o];
      }
    }
    ev.bound.erase(ph.steps.counter);
    return true;
  }
};

// The second loop: counted, its body the messages (every rank, every
// step) and declarations of what they read; the call replaces it whole.
bool readSecondLoop(const SourceText &src, TwoPhaseRing &t, Phase &ph, Runner &run) {
  if (!countedLoop(ph.loop, ph.steps))
    return run.refuse("the second loop (" + line(src, ph.loop) + ") is not a counted for loop the rewriter reads");
  const Stmt *body = cast<ForStmt>(ph.loop)->getBody();
  std::vector<const Stmt *> kids;
  if (const auto *c = dyn_cast<CompoundStmt>(body)) kids.assign(c->body_begin(), c->body_end());
  else kids.push_back(body);
  for (const Stmt *s : kids) {
    if (holdsMessage(s)) {
      if (std::string under = conditionalMessage(src, s); !under.empty())
        return run.refuse("the second loop's messages run under " + under + ": not every rank may send and "
                          "receive in every step, which the evaluation of the ring assumes");
      continue;
    }
    if (isa<DeclStmt>(s) && !mentions(s, {t.acc, t.got})) continue;
    return run.refuse("the second loop does `" + src.of(s) + "` (" + line(src, s) + "), which is no part of "
                      "forwarding blocks of '" + t.acc->getNameAsString() + "': the call would drop it");
  }
  return true;
}

} // namespace

std::string scratchReadAfter(const SourceText &src, const VarDecl *got, const Stmt *first, const Stmt *last,
                             const std::string &shape) {
  const Stmt *fn = outermostStmt(src, first), *outer = nullptr;
  for (const Stmt *p = parentStmt(src, first); p; p = parentStmt(src, p))
    if (!outer && isLoop(p)) outer = p;
  unsigned begin = src.offset(first->getBeginLoc()), end = src.endOffset(last);
  std::string why;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s || !why.empty() || isa<UnaryExprOrTypeTraitExpr>(s)) return;
    if (const auto *c = dyn_cast<CallExpr>(s); c && calleeName(c) == "free" && c->getNumArgs() == 1 &&
                                                  referencedVar(c->getArg(0)) == got)
      return;
    if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == got) {
      unsigned at = src.offset(s->getBeginLoc());
      bool inOuter = outer && at >= src.offset(outer->getBeginLoc()) && at < src.endOffset(outer);
      if (at >= end || (inOuter && at < begin))
        why = "the " + shape + " leaves the last block it received in '" + got->getNameAsString() +
              "', which the program reads at " + line(src, d) + "; MPI_Allreduce leaves it as it was";
      return;
    }
    for (const Stmt *c : s->children()) walk(c);
  };
  walk(fn);
  return why;
}

bool followsDirectly(const SourceText &src, const Stmt *first, const Stmt *second) {
  const auto *block = dyn_cast_or_null<CompoundStmt>(parentStmt(src, first));
  if (!block || parentStmt(src, second) != block) return false;
  for (auto it = block->body_begin(); it != block->body_end(); ++it)
    if (*it == first) return std::next(it) != block->body_end() && *std::next(it) == second;
  return false;
}

TwoPhaseRing analyzeTwoPhaseRing(const SourceText &src, const std::vector<MessageArgs> &sends,
                                 const std::vector<MessageArgs> &recvs, const std::string &comm) {
  TwoPhaseRing t;
  if (sends.size() != 2 || recvs.size() != 2) return t;
  // Each loop holds one send and one receive; the first receives into a
  // buffer named whole, the second into a block.
  int firstSend = -1, firstRecv = -1, secondSend = -1, secondRecv = -1;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      const Stmt *loop = loopAround(src, sends[size_t(i)].buffer);
      if (!loop || loop != loopAround(src, recvs[size_t(j)].buffer)) continue;
      const Expr *offset = nullptr;
      if (blockOf(recvs[size_t(j)].buffer, offset)) secondSend = i, secondRecv = j;
      else firstSend = i, firstRecv = j;
    }
  if (firstSend < 0 || secondSend < 0 || firstSend == secondSend || firstRecv == secondRecv) return t;
  RingReduceScatter rs = analyzeReduceScatterRing(src, {sends[size_t(firstSend)]}, {recvs[size_t(firstRecv)]},
                                                  comm, true);
  if (!rs.found) return t;
  t.found = true;
  RingEvaluator ev(src);
  Runner run(src, t, ev);
  if (!rs.whyNot.empty()) return run.refuse(rs.whyNot), t;
  t.acc = rs.acc, t.got = rs.got, t.first = rs.loop, t.count = rs.count, t.op = rs.op;
  t.combineStep = rs.combineStep;
  std::string acc = "'" + t.acc->getNameAsString() + "'";

  const MessageArgs &send = sends[size_t(secondSend)], &recv = recvs[size_t(secondRecv)];
  Phase first, second;
  first.loop = t.first, first.combines = true;
  countedLoop(t.first, first.steps); // analyzeReduceScatterRing read it
  first.to = sends[size_t(firstSend)].peer, first.from = recvs[size_t(firstRecv)].peer;
  first.sendOffset = rs.sendOffset, first.recvOffset = rs.combineOffset;
  second.loop = t.second = loopAround(src, recv.buffer);
  second.to = send.peer, second.from = recv.peer;
  if (blockOf(send.buffer, second.sendOffset) != t.acc || blockOf(recv.buffer, second.recvOffset) != t.acc)
    return run.refuse("the second loop sends " + src.of(send.buffer) + " and receives " + src.of(recv.buffer) +
                      ": not blocks of " + acc + ", which the first loop combined into"), t;
  if (!send.peer || !recv.peer) return run.refuse("the second loop's neighbours are not named at its sites"), t;
  for (const Expr *n : {send.count, recv.count})
    if (squeeze(src.of(n)) != squeeze(src.of(t.count)))
      return run.refuse("the first loop's blocks are " + src.of(t.count) + " elements, the second loop's " +
                        src.of(n)), t;
  // The call replaces both loops: nothing may stand between them.
  if (!followsDirectly(src, t.first, t.second))
    return run.refuse("the loop at " + line(src, t.second) + " that forwards the combined blocks does not "
                      "follow the combining loop at " + line(src, t.first) + " directly: the call replacing "
                      "both would drop or reorder what lies between them"), t;
  if (!readSecondLoop(src, t, second, run)) return t;

  ev.readFunction(t.first, comm);
  for (long p : ringSizes())
    if (!run.runAt(p, first, second)) return t;
  t.notes.push_back("both loops' index arithmetic, run for every rank at P = " + ringSizesText() +
                    ", leaves every rank with every block k of " + acc + " holding every rank's block k "
                    "combined once (" + t.op + ")");
  // The call's count names the size: a variable MPI_Comm_size sets and
  // nothing else writes (or passes on by address).
  t.size = unchangedSize(src, ev, t.first);
  if (!t.size)
    return run.refuse("no variable holds the size of " + comm + " unchanged (MPI_Comm_size into it, written "
                      "nowhere else), which the call's count P * " + src.of(t.count) + " would name"), t;
  if (std::string read = scratchReadAfter(src, t.got, t.first, t.second, "ring"); !read.empty()) return run.refuse(read), t;
  if (!t.got->getType()->isArrayType())
    t.review.push_back("'" + t.got->getNameAsString() + "' is a pointer: check that it does not overlap " + acc);
  QualType elem = elementType(t.acc);
  if (elem->isFloatingType() && (t.op == "MPI_SUM" || t.op == "MPI_PROD"))
    t.review.push_back("the ring combines in its own order; MPI_Allreduce's order may round the "
                       "floating-point result differently");
  return t;
}

} // namespace cz::rewrite
