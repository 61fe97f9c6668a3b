// RingAllgatherv.cpp: see RingAllgatherv.h.
#include "RingAllgatherv.h"

#include "clang/AST/ASTContext.h"

#include "Arguments.h"
#include "AstQueries.h"
#include "RingCombine.h"
#include "RingEvaluator.h"
#include "VaryingArrays.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// What slot j of a rank's buffer holds, as the ring runs.
constexpr long kNothing = -1;   // never written: the program's old contents
constexpr long kMisplaced = -2; // a block that left another slot (other displacement and count)

std::string where(long p, long q, long s) {
  return "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " step " + std::to_string(s);
}

const CallExpr *callAround(const SourceText &src, const Expr *argument) {
  for (const Stmt *p = parentStmt(src, argument); p; p = parentStmt(src, p))
    if (const auto *c = dyn_cast<CallExpr>(p)) return c;
  return nullptr;
}

class Run {
public:
  Run(const SourceText &src, RingEvaluator &ev, const MessageArgs &send, const MessageArgs &recv,
      const Expr *sendIndex, const Expr *recvIndex, const CountedLoop &steps)
      : src(src), ev(ev), send(send), recv(recv), sendIndex(sendIndex), recvIndex(recvIndex), steps(steps) {}

  // The ring at size p for every rank; why is set when it is not proven
  // (unknown true: the arithmetic could not be evaluated).
  bool runAt(long p, std::string &why, bool &unknown) {
    const size_t np = size_t(p);
    // holds[q][j]: whose block slot j of rank q holds.
    std::vector<std::vector<long>> holds(np, std::vector<long>(np, kNothing));
    for (size_t q = 0; q < np; q++) holds[q][q] = long(q);
    ev.p = p;
    long first = 0, last = 0;
    for (long q = 0; q < p; q++) {
      ev.me = q;
      long a = 0, b = 0;
      if (!loopRange(ev, steps, a, b))
        return unknown = true, why = "the ring's loop bounds (" + src.of(steps.start) + ", " + src.of(steps.bound) +
                                     ") are not expressions of the rank and the size the rewriter evaluates (the variables MPI_Comm_rank "
                                     "and MPI_Comm_size on the ring's communicator fill in this function)",
               false;
      if (q > 0 && (a != first || b != last))
        return why = "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " runs the ring's loop over " +
                     "other steps than rank 0", false;
      first = a, last = b;
    }
    if (last - first > 64)
      return unknown = true, why = "the ring's loop runs more than 64 steps at P = " + std::to_string(p), false;
    for (long s = first; s < last; s++) {
      ev.bound[steps.counter] = s;
      std::vector<long> to(np), from(np), out(np), into(np);
      for (long q = 0; q < p; q++) {
        ev.me = q;
        size_t k = size_t(q);
        if (!ev.value(send.peer, to[k]) || !ev.value(recv.peer, from[k]) || !ev.value(sendIndex, out[k]) ||
            !ev.value(recvIndex, into[k]))
          return unknown = true,
                 why = "the ring's neighbours (" + src.of(send.peer) + ", " + src.of(recv.peer) + ") or block "
                       "indices (" + src.of(sendIndex) + ", " + src.of(recvIndex) + ") are not expressions of the "
                       "rank, the size and the step that the rewriter evaluates",
                 false;
        for (long v : {to[k], from[k], out[k], into[k]})
          if (v < 0 || v >= p)
            return why = where(p, q, s) + " names a rank or block index outside 0.." + std::to_string(p - 1), false;
      }
      // Everything sent in a step leaves before anything of it arrives.
      std::vector<long> sent(np);
      for (long q = 0; q < p; q++) {
        size_t k = size_t(q);
        if (from[size_t(to[k])] != q)
          return why = where(p, q, s) + " sends to rank " + std::to_string(to[k]) +
                       ", which receives from another rank in that step", false;
        sent[k] = holds[k][size_t(out[k])];
        if (sent[k] >= 0 && sent[k] != out[k]) sent[k] = kMisplaced;
      }
      for (long q = 0; q < p; q++) {
        size_t k = size_t(q);
        long sender = from[k], slot = into[k], block = sent[size_t(sender)];
        if (block >= 0 && out[size_t(sender)] != slot) {
          if (why.empty()) // the first misplaced block, for the reason
            why = where(p, q, s) + " receives block " + std::to_string(out[size_t(sender)]) + " of rank " +
                  std::to_string(sender) + " (rank " + std::to_string(block) + "'s) into slot " +
                  std::to_string(slot) + ", another displacement and count";
          block = kMisplaced;
        }
        holds[k][size_t(slot)] = block;
      }
    }
    ev.bound.erase(steps.counter);
    for (size_t q = 0; q < np; q++)
      for (size_t j = 0; j < np; j++) {
        if (holds[q][j] == long(j)) continue;
        std::string end = "at P = " + std::to_string(p) + " rank " + std::to_string(q) + " ends with slot " +
                          std::to_string(j) + " holding ";
        why = holds[q][j] == kNothing ? end + "no block it received (rank " + std::to_string(j) + "'s block never "
                                              "arrives there)"
                                      : end + "no copy of rank " + std::to_string(j) + "'s block" +
                                              (why.empty() ? "" : " (first: " + why + ")");
        return false;
      }
    why.clear();
    return true;
  }

private:
  const SourceText &src;
  RingEvaluator &ev;
  const MessageArgs &send, &recv;
  const Expr *sendIndex, *recvIndex;
  const CountedLoop &steps;
};

} // namespace

RingBlocks ringAllgathervBlocks(const SourceText &src, const std::vector<MessageArgs> &sends,
                                const std::vector<MessageArgs> &recvs, const Expr *base, const Expr *countArray,
                                const Expr *displsArray, const Expr *recvIndex, const std::string &comm) {
  RingBlocks r;
  if (sends.size() != 1 || recvs.size() != 1) return r;
  const Stmt *loop = nullptr;
  for (const Stmt *p = parentStmt(src, recvs[0].buffer); p && !loop; p = parentStmt(src, p))
    if (isLoop(p)) loop = p;
  unsigned sentAt = src.offset(sends[0].buffer->getBeginLoc());
  if (!loop || sentAt < src.offset(loop->getBeginLoc()) || sentAt >= src.endOffset(loop)) return r;
  auto unproven = [&](const std::string &why) {
    r.verdict = RingBlocks::Unproven;
    r.why = why;
    return r;
  };
  // The send: a block of the same buffer, at the same arrays' index x.
  auto [sentBase, sentDispl] = bufferAtOffset(sends[0].buffer);
  auto [displs, sendIndex] = sentDispl ? arrayElement(sentDispl) : std::make_pair(nullptr, nullptr);
  auto [counts, countIndex] = arrayElement(sends[0].count);
  auto same = [&](const Expr *a, const Expr *b) { return a && b && squeeze(src.of(a)) == squeeze(src.of(b)); };
  if (!same(sentBase, base) || !same(displs, displsArray) || !same(counts, countArray) || !same(sendIndex, countIndex))
    return unproven("the ring sends `" + src.of(sends[0].buffer) + "`, " + src.of(sends[0].count) + " elements, "
                    "not a block " + src.of(base) + " + " + src.of(displsArray) + "[x] of " + src.of(countArray) +
                    "[x] elements like the blocks it receives");
  if (!sends[0].peer || !recvs[0].peer) return unproven("the ring's neighbours are not named at its sites");
  CountedLoop steps;
  if (!countedLoop(loop, steps))
    return unproven("the ring's loop (line " + std::to_string(src.line(loop->getBeginLoc())) +
                    ") is not a counted for loop the rewriter reads");
  // Only the messages and the locals naming their blocks: anything else
  // in the loop is work the proof does not follow.
  const Stmt *body = cast<ForStmt>(loop)->getBody();
  std::vector<const Stmt *> kids;
  if (const auto *c = dyn_cast<CompoundStmt>(body)) kids.assign(c->body_begin(), c->body_end());
  else kids.push_back(body);
  for (const Stmt *s : kids) {
    if (!holdsMessage(s) && !isa<DeclStmt>(s))
      return unproven("the ring's loop also does `" + src.of(s) + "` (line " + std::to_string(src.line(s->getBeginLoc())) +
                      "), which the proof of the blocks' places does not follow");
    // Every rank runs every message of every step: no condition around one.
    if (std::string under = conditionalMessage(src, s); !under.empty())
      return unproven("the ring's messages run under " + under + ", which the proof (every rank sends and "
                      "receives once in every step) does not follow");
  }
  // What a step sends is what the slot held before the step: a blocking
  // receive before the send could forward the block it just received.
  const CallExpr *sendCall = callAround(src, sends[0].buffer), *recvCall = callAround(src, recvs[0].buffer);
  if (!sendCall || !recvCall) return r;
  if (sendCall != recvCall && src.offset(recvCall->getBeginLoc()) < src.offset(sendCall->getBeginLoc()) &&
      calleeName(recvCall) != "MPI_Irecv")
    return unproven("the ring's receive (line " + std::to_string(src.line(recvCall->getBeginLoc())) + ") completes "
                    "before its send starts, so a step may send the block it just received, which the proof does "
                    "not follow");
  RingEvaluator ev(src);
  ev.readFunction(loop, comm);
  Run run(src, ev, sends[0], recvs[0], sendIndex, recvIndex, steps);
  for (long p : ringSizes()) {
    std::string why;
    bool unknown = false;
    if (run.runAt(p, why, unknown)) continue;
    if (unknown) return unproven(why);
    r.verdict = RingBlocks::Wrong;
    r.why = why;
    return r;
  }
  r.verdict = RingBlocks::Proven;
  r.note = "the ring's index arithmetic, run for every rank at P = " + ringSizesText() + ", leaves rank j's block " +
           "at " + src.of(displsArray) + "[j] with " + src.of(countArray) + "[j] elements on every rank, each "
           "received from the slot of the same index";
  return r;
}

} // namespace cz::rewrite
