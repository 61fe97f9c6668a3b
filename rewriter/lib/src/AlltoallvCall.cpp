// AlltoallvCall.cpp: see AlltoallvCall.h.
#include "AlltoallvCall.h"

#include <algorithm>
#include <array>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include "ArrayFills.h"
#include "AstQueries.h"
#include "RingCombine.h"
#include "RingEvaluator.h"
#include "VaryingArrays.h"

namespace cz::rewrite {

using namespace clang;

namespace {

bool sameText(const SourceText &src, const Expr *e, const std::set<std::string> &texts) {
  return e && texts.count(squeeze(src.of(e)));
}

const VarDecl *declared(const Expr *e) {
  const auto *d = dyn_cast_or_null<DeclRefExpr>(e ? strip(e) : nullptr);
  return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
}

// The element type a buffer expression points at (or holds, an array).
QualType elementOf(const Expr *e) {
  QualType t = strip(e)->getType();
  if (t->isPointerType()) return t->getPointeeType();
  if (t->isArrayType()) return QualType(t->getPointeeOrArrayElementType(), 0);
  return QualType();
}

// The rank's own block, as the source names it with the rank variable me.
struct OwnBlock {
  std::set<std::string> counts; // SC[me], RC[me]
  std::set<std::string> to, from; // R + RD[me], &R[RD[me]]; the same of S
  std::string r, s;               // R and S
  std::string rd, sd;             // RD[me], SD[me]
};

// names: S, SC, SD, R, RC, RD as the sites write them.
OwnBlock ownBlock(const std::array<std::string, 6> &names, const std::string &me) {
  OwnBlock b;
  b.s = squeeze(names[0]), b.r = squeeze(names[3]);
  b.sd = squeeze(names[2]) + "[" + me + "]", b.rd = squeeze(names[5]) + "[" + me + "]";
  b.counts = {squeeze(names[1]) + "[" + me + "]", squeeze(names[4]) + "[" + me + "]"};
  b.to = {b.r + "+" + b.rd, b.rd + "+" + b.r, "&" + b.r + "[" + b.rd + "]"};
  b.from = {b.s + "+" + b.sd, b.sd + "+" + b.s, "&" + b.s + "[" + b.sd + "]"};
  return b;
}

// `for (i = 0; i < N; i++) R[RD[me] + i] = S[SD[me] + i];`, N one of the
// block's counts.
bool loopCopies(const SourceText &src, const Stmt *s, const OwnBlock &b) {
  const auto *f = dyn_cast<ForStmt>(s);
  if (!f || !f->getInit() || !f->getCond() || !f->getInc()) return false;
  const VarDecl *i = nullptr;
  if (const auto *d = dyn_cast<DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
    i = dyn_cast<VarDecl>(d->getSingleDecl());
    if (!i || !i->getInit() || squeeze(src.of(i->getInit())) != "0") return false;
  } else if (const auto *a = dyn_cast<BinaryOperator>(f->getInit()); a && a->getOpcode() == BO_Assign) {
    i = declared(a->getLHS());
    if (squeeze(src.of(a->getRHS())) != "0") return false;
  }
  const auto *cond = dyn_cast<BinaryOperator>(f->getCond()->IgnoreParenImpCasts());
  const auto *inc = dyn_cast<UnaryOperator>(f->getInc());
  if (!i || !cond || cond->getOpcode() != BO_LT || declared(cond->getLHS()) != i ||
      !sameText(src, cond->getRHS(), b.counts) || !inc || !inc->isIncrementOp() || declared(inc->getSubExpr()) != i)
    return false;
  const Stmt *body = f->getBody();
  if (const auto *c = dyn_cast<CompoundStmt>(body)) body = c->size() == 1 ? c->body_front() : nullptr;
  const auto *set = dyn_cast_or_null<BinaryOperator>(body);
  if (!set || set->getOpcode() != BO_Assign) return false;
  const auto *to = dyn_cast<ArraySubscriptExpr>(strip(set->getLHS()));
  const auto *from = dyn_cast<ArraySubscriptExpr>(set->getRHS()->IgnoreParenImpCasts());
  std::string n = i->getNameAsString();
  return to && from && squeeze(src.of(to->getBase())) == b.r && squeeze(src.of(from->getBase())) == b.s &&
         sameText(src, to->getIdx(), {b.rd + "+" + n, n + "+" + b.rd}) &&
         sameText(src, from->getIdx(), {b.sd + "+" + n, n + "+" + b.sd}) &&
         to->getType().getCanonicalType().getUnqualifiedType() ==
             from->getType().getCanonicalType().getUnqualifiedType();
}

// `memcpy(R + RD[me], S + SD[me], N * sizeof(T))`, T the elements of R.
bool memcpyCopies(const SourceText &src, const Stmt *s, const OwnBlock &b, QualType element) {
  const auto *call = dyn_cast<CallExpr>(s);
  if (!call || call->getNumArgs() != 3) return false;
  std::string name = calleeName(call);
  if (name != "memcpy" && name != "memmove" && name != "__builtin_memcpy") return false;
  const auto *bytes = dyn_cast<BinaryOperator>(strip(call->getArg(2)));
  if (!bytes || bytes->getOpcode() != BO_Mul || element.isNull()) return false;
  const Expr *count = strip(bytes->getLHS()), *size = strip(bytes->getRHS());
  if (isa<UnaryExprOrTypeTraitExpr>(count)) std::swap(count, size);
  const auto *sz = dyn_cast<UnaryExprOrTypeTraitExpr>(size);
  return sz && sz->getKind() == UETT_SizeOf &&
         src.ctx.hasSameUnqualifiedType(sz->getTypeOfArgument(), element) && sameText(src, count, b.counts) &&
         sameText(src, call->getArg(0), b.to) && sameText(src, call->getArg(1), b.from);
}

// The variable v of the statement for which it copies exactly the own
// block of rank v, or null.
const VarDecl *copiedRank(const SourceText &src, const Stmt *s, const std::array<std::string, 6> &names,
                          QualType element) {
  const VarDecl *found = nullptr;
  forEachStmt(s, [&](const Stmt *x) {
    const VarDecl *me = found ? nullptr : declared(dyn_cast<Expr>(x));
    if (!me) return;
    OwnBlock b = ownBlock(names, me->getNameAsString());
    if (loopCopies(src, s, b) || memcpyCopies(src, s, b, element)) found = me;
  });
  return found;
}

// S, SC, SD, R, RC, RD at the first send and receive, when both are a
// block at a displacement with a count from arrays.
bool siteNames(const SourceText &src, const MessageArgs &send, const MessageArgs &recv,
               std::array<std::string, 6> &names, QualType &element) {
  size_t k = 0;
  for (const MessageArgs *a : {&send, &recv}) {
    auto [base, displacement] = bufferAtOffset(a->buffer);
    auto [displs, index] = displacement ? arrayElement(displacement) : std::make_pair(nullptr, nullptr);
    auto [counts, countIndex] = arrayElement(a->count);
    if (!displs || !counts) return false;
    names[k++] = src.of(base), names[k++] = src.of(counts), names[k++] = src.of(displs);
    element = elementOf(base);
  }
  return true;
}

} // namespace

std::set<const Stmt *> ownBlockCopies(const SourceText &src, const std::vector<MessageArgs> &sends,
                                      const std::vector<MessageArgs> &recvs) {
  std::set<const Stmt *> out;
  std::array<std::string, 6> names;
  QualType element;
  if (sends.empty() || recvs.empty() || !siteNames(src, sends[0], recvs[0], names, element)) return out;
  forEachStmt(outermostStmt(src, sends[0].buffer), [&](const Stmt *x) {
    if (const auto *block = dyn_cast<CompoundStmt>(x))
      for (const Stmt *s : block->body())
        if (copiedRank(src, s, names, element)) out.insert(s);
  });
  return out;
}

namespace {

// The region's copies of the own block, each proven to copy this rank's
// (its variable is filled by MPI_Comm_rank and holds across the region);
// why: a copy that is not.
std::vector<const Stmt *> provenCopies(const ArgumentContext &c, std::string &why) {
  std::vector<const Stmt *> out;
  std::array<std::string, 6> names;
  QualType element;
  if (!siteNames(c.src, c.sends[0], c.recvs[0], names, element)) return out;
  for (const Stmt *s : c.region.droppedCopies) {
    const VarDecl *me = copiedRank(c.src, s, names, element);
    bool rank = me && std::count(c.region.rankVariables.begin(), c.region.rankVariables.end(), me);
    if (!rank || c.flow.valueWrittenIn(me, c.region.begin, c.region.end, c.precede)) {
      why = "the copy at line " + std::to_string(c.src.line(s->getBeginLoc())) + " moves the block of `" +
            (me ? me->getNameAsString() : "?") + "`, which is not this rank's (" +
            (rank ? "it changes in the region" : "no MPI_Comm_rank fills it in this function") +
            "), while MPI_Alltoallv moves the rank's own block";
      return {};
    }
    out.push_back(s);
  }
  return out;
}

// The site runs for every peer of comm, the rank itself included: it is in
// a counted loop whose counter is its peer, running from 0 to the size on
// every rank (evaluated at ringSizes()), and nothing between it and the
// region's top level is a condition. Every rank then sends its own block
// to itself (or receives it from itself), as MPI_Alltoallv moves it.
bool reachesItself(const ArgumentContext &c, const MessageArgs &a, const std::string &comm) {
  const Stmt *loop = nullptr;
  const Stmt *p = parentStmt(c.src, a.buffer);
  for (; p && !std::count(c.region.slice.begin(), c.region.slice.end(), p); p = parentStmt(c.src, p)) {
    const auto *logical = dyn_cast<BinaryOperator>(p);
    if (isa<IfStmt>(p) || isa<SwitchStmt>(p) || isa<ConditionalOperator>(p) || (logical && logical->isLogicalOp()))
      return false;
    if (!loop && isLoop(p)) loop = p;
  }
  if (!loop && p && isLoop(p)) loop = p;
  CountedLoop steps;
  if (!p || !loop || !countedLoop(loop, steps) || declared(a.peer) != steps.counter) return false;
  RingEvaluator ev(c.src);
  ev.readFunction(loop, comm);
  for (long size : ringSizes())
    for (long q = 0; q < size; q++) {
      ev.p = size, ev.me = q;
      long first = 0, last = 0;
      if (!loopRange(ev, steps, first, last) || first != 0 || last != size) return false;
    }
  return true;
}

// Rank a's recvcounts[b] equals rank b's sendcounts[a], for every pair of
// ranks at every size of ringSizes(), both evaluated from the fills in
// the source (ArrayFills.h); "" when shown, else why not.
std::string pairwiseCounts(const ArgumentContext &c, const std::string &comm, const SideArrays &snd,
                           const SideArrays &rcv) {
  const VarDecl *sc = referencedVar(snd.last[1]), *rc = referencedVar(rcv.last[1]);
  if (!sc || !rc) return "the count arrays are no variables";
  ArrayFills fills(c.src, c.recvs[0].count, comm, c.region.begin);
  for (long p : ringSizes())
    for (long a = 0; a < p; a++)
      for (long b = 0; b < p; b++) {
        long posted = 0, sent = 0;
        if (a == b) continue;
        if (!fills.element(rc, b, p, a, posted) || !fills.element(sc, a, p, b, sent)) return fills.whyNot;
        if (posted != sent)
          return "at P = " + std::to_string(p) + " rank " + std::to_string(a) + " receives " + rcv.counts + "[" +
                 std::to_string(b) + "] = " + std::to_string(posted) + " elements from rank " + std::to_string(b) +
                 ", which sends it " + snd.counts + "[" + std::to_string(a) + "] = " + std::to_string(sent);
      }
  return "";
}

} // namespace

std::string sideType(const ArgumentContext &c, const std::vector<MessageArgs> &side, const char *what,
                     const std::string &call, std::string &whyNot) {
  std::string type = c.src.of(side[0].datatype);
  for (const MessageArgs &a : side)
    if (squeeze(c.src.of(a.datatype)) != squeeze(type))
      return whyNot = std::string("the ") + what + " name different datatypes (" + type + ", " +
                      c.src.of(a.datatype) + "): MPI_Alltoallv takes one per side", "";
  // As the other shapes: a datatype handle is named, not computed (MPI's
  // own handles are addresses of its globals, which the flow cannot follow).
  if (mentions(side[0].datatype, c.region.regionLocals))
    return whyNot = "the datatype " + textAt(c, side[0].datatype) + " is declared inside the region", "";
  return type;
}

VaryingCall alltoallvCall(const ArgumentContext &c, const std::string &comm) {
  VaryingCall out;
  if (c.sends.empty() || c.recvs.empty()) return out.whyNot = "the sites show only one side of the alltoallv", out;
  if (!c.match.recvLayout.empty() || !c.match.sendLayout.empty())
    return out.whyNot = "the blocks are placed in another order than the peers' (the report's send_layout/"
                        "recv_layout): MPI_Alltoallv keeps one displacement per peer",
           out;
  std::string sendType = sideType(c, c.sends, "sends", "MPI_Alltoallv", out.whyNot), recvType;
  if (!sendType.empty()) recvType = sideType(c, c.recvs, "receives", "MPI_Alltoallv", out.whyNot);
  if (recvType.empty()) return out;
  SideArrays snd = sideArrays(c, c.sends, true), rcv = sideArrays(c, c.recvs, false);
  if (snd.counts.empty() || rcv.counts.empty()) {
    const MessageArgs &s = c.sends[0], &r = c.recvs[0];
    out.suggestion = "MPI_Alltoallv(" + (snd.counts.empty() ? "<sendbuf>, <sendcounts>, <sdispls>"
                                                            : snd.buffer + ", " + snd.counts + ", " + snd.displs) +
                     ", " + sendType + ", " +
                     (rcv.counts.empty() ? "<recvbuf>, <recvcounts>, <rdispls>"
                                         : rcv.buffer + ", " + rcv.counts + ", " + rcv.displs) +
                     ", " + recvType + ", " + comm + ")";
    if (snd.counts.empty())
      out.notes = {"<sendbuf>, <sendcounts>, <sdispls>: the buffer every block is sent from, and two int arrays "
                   "the program must supply on every rank, one element per rank of the communicator: element q "
                   "is the count of the block for rank q and where it starts in <sendbuf>, in elements of its "
                   "datatype. The hand-made send moves " + textAt(c, s.count) + " elements from " +
                   textAt(c, s.buffer) + "; no count the trace saw is used"};
    if (rcv.counts.empty())
      out.notes.push_back("<recvbuf>, <recvcounts>, <rdispls>: the buffer every block is received into, and two "
                          "int arrays the program must supply on every rank: element q is the count of the block "
                          "from rank q and where it starts in <recvbuf>. The hand-made receive moves " +
                          textAt(c, r.count) + " elements into " + textAt(c, r.buffer) +
                          "; no count the trace saw is used");
    out.whyNot = "no arrays of counts and displacements in the source for MPI_Alltoallv: " +
                 (snd.counts.empty() ? snd.whyNot : rcv.whyNot) + "; the rationale suggests " + out.suggestion +
                 ", its arrays to supply by hand";
    return out;
  }
  // Only a direct exchange, each block indexed by its peer, is what the
  // call does; an index of its own (a staged or rotated exchange) is not proven.
  for (const SideArrays *side : {&snd, &rcv})
    if (!side->indexIsPeer)
      return out.whyNot = "the " + std::string(side == &snd ? "sends" : "receives") + " take their block at index `" +
                          side->index + "`, not the rank they exchange it with: MPI_Alltoallv moves block q to "
                          "or from rank q, which the rewriter proves only for a direct exchange",
             out;
  if (squeeze(snd.buffer) == squeeze(rcv.buffer))
    return out.whyNot = "the blocks are sent from and received into the same buffer (" + rcv.buffer + "): "
                        "MPI_Alltoallv with MPI_IN_PLACE places them by the receive arrays alone; replace it by hand",
           out;
  out.notes.push_back("sendcounts: " + snd.counts + ", sdispls: " + snd.displs + ", recvcounts: " + rcv.counts +
                      ", rdispls: " + rcv.displs + " (the arrays every send and receive takes its count and "
                      "displacement from, at the peer's index, unchanged across the region)");
  std::string unshown = squeeze(sendType) != squeeze(recvType)
                            ? "the sends are in " + sendType + " and the receives in " + recvType +
                                  ": counts of different datatypes do not compare"
                            : pairwiseCounts(c, comm, snd, rcv);
  if (unshown.empty())
    out.notes.push_back(rcv.counts + "[q] at rank r equals " + snd.counts + "[r] at rank q, evaluated from the "
                        "source's fills for every pair of ranks at P = " + ringSizesText());
  else
    out.review.push_back(unshownCounts("MPI_Alltoallv", unshown));
  std::string notThisRank;
  std::vector<const Stmt *> copies = provenCopies(c, notThisRank);
  if (!notThisRank.empty()) return out.whyNot = notThisRank, out;
  bool self = true;
  for (const auto *side : {&c.sends, &c.recvs})
    for (const MessageArgs &a : *side) self = self && reachesItself(c, a, comm);
  if (self && copies.empty())
    out.notes.push_back("each rank's own block: every send and receive runs for every rank of " + comm +
                        ", itself included (a loop from 0 to the size on every rank at P = " + ringSizesText() +
                        ", under no condition), so the replaced code sends that block to itself, as "
                        "MPI_Alltoallv moves it");
  else if (!copies.empty())
    out.notes.push_back("each rank's own block: the copy of " + snd.buffer + " + " + snd.displs + "[me] into " +
                        rcv.buffer + " + " + rcv.displs + "[me] at line " +
                        std::to_string(c.src.line(copies[0]->getBeginLoc())) + " is part of the exchange; "
                        "MPI_Alltoallv makes it, so the patch drops it");
  else
    out.review.push_back("MPI_Alltoallv also copies each rank's own block, " + snd.buffer + " + " + snd.displs +
                         "[me], into " + rcv.buffer + " + " + rcv.displs + "[me], which the replaced code does "
                         "not do (no copy of exactly that block in the region, and no send to itself the "
                         "rewriter proves): check nothing reads that "
                         "place expecting its old contents");
  out.call = "MPI_Alltoallv(" + snd.buffer + ", " + snd.counts + ", " + snd.displs + ", " + sendType + ", " +
             rcv.buffer + ", " + rcv.counts + ", " + rcv.displs + ", " + recvType + ", " + comm + ")";
  return out;
}

} // namespace cz::rewrite
