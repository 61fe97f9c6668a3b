// Replacement.cpp: the collective call that replaces a region, per kind.
//
// Buffers, communicator and datatype are the sites' own argument text when
// it is valid at the region (it names no variable declared inside it, and
// none it names changes there): a buffer argument `all + q * n` or
// `&all[q * n]` gives its base `all`. The count and the root are source
// expressions chosen by Arguments.cpp; a value seen in the trace only
// checks them. What no expression gives means no patch.
#include "collectivize/rewrite/Replacement.h"

#include <map>
#include <set>
#include <algorithm>
#include <cctype>
#include <functional>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"

#include "collectivize/rewrite/CallShapes.h"

#include "AlltoallvCall.h"
#include "Arguments.h"
#include "AstQueries.h"
#include "BlockLayout.h"
#include "CombineStep.h"
#include "RingCalls.h"
#include "RingCombine.h"
#include "RingReduceScatter.h"
#include "RingTwoPhase.h"
#include "DataFlow.h"
#include "VaryingArrays.h"

namespace cz::rewrite {

using namespace clang;

std::set<const VarDecl *> reductionAccumulators(const std::vector<SiteCall> &sites) {
  std::set<const VarDecl *> out;
  for (const SiteCall &s : sites) {
    if (!s.send) continue;
    MessageArgs a = messageArgs(s.call, s.callee, true);
    if (a.valid())
      if (const VarDecl *v = referencedVar(a.buffer)) out.insert(v);
  }
  return out;
}

namespace {

class Builder {
public:
  Builder(const SourceText &src, const RegionPlan &region, const DetectedMatch &match,
          const std::vector<SiteCall> &sites, Target target, int group)
      : src(src), region(region), match(match), target(target), sends(split(sites, true)),
        recvs(split(sites, false)), flow(src, region.function, rankLike(sends, recvs)),
        args{src, region, match, flow, sends, recvs,
             region.precede.count(group) ? region.precede.at(group) : FunctionFlow::Ranges{}} {}

  CallPlan run() {
    CallPlan plan;
    const std::string &k = match.kind;
    bool rooted = k == "bcast" || k == "scatter" || k == "gather" || k == "reduce";
    // The kinds with a call shape below; the v forms need a count and a
    // displacement per rank, as arrays the source holds (VaryingArrays.h),
    // which only allgatherv and alltoallv derive (a count seen in the
    // trace never becomes a literal).
    static const std::set<std::string> shaped = {"bcast",     "scatter",   "gather",  "reduce", "allreduce",
                                                 "allgather", "alltoall",  "barrier", "scan",   "exscan",
                                                 "reduce_scatter", "allgatherv", "alltoallv"};
    if (!shaped.count(k))
      return fail(plan, "no patch shape for " + k + " yet" +
                            (k.back() == 'v' ? ": its MPI call takes a count and a displacement per rank, "
                                               "which the rewriter does not derive from the source; "
                                               "replace it by hand (the report gives each rank's count)"
                                             : ""));
    if (sends.empty() && recvs.empty()) return fail(plan, "no send or receive arguments at the sites");
    if (match.subset)
      return fail(plan, "the collective runs on a part of its communicator (ranks " + rankList() +
                            "): the source has no communicator holding exactly that group; create it "
                            "(MPI_Comm_split) and call the collective on it by hand");
    if (!commText(plan)) return plan;
    if (k == "allgatherv") return allgatherv(plan);
    if (k == "alltoallv") return alltoallv(plan);
    if (k == "barrier") {
      plan.hasEffect = true;
      plan.effect.barrier = true;
      plan.effect.comm = comm;
      return finish(plan, "MPI_Barrier(" + comm + ")");
    }
    if (k == "reduce_scatter") // a ring it refuses whatever the count (unequal blocks): why
      if (RingReduceScatter ring = analyzeReduceScatterRing(src, sends, recvs, comm); !ring.whyNot.empty())
        return fail(plan, ring.whyNot);
    if (k == "allreduce" && twoPhaseRing(plan)) return plan;
    if (!take(chooseCount(args), count, plan) || !typeText(plan)) return plan;
    if (rooted && !take(chooseRoot(args), root, plan)) return plan;
    if (!buffersHold(plan)) return plan;
    rank = rankText();
    std::string call;
    if (k == "bcast") {
      // One buffer on every rank: the root's, if the receivers use it too.
      std::string s = sends.empty() ? "" : usable(sends[0].buffer, true), r;
      std::set<std::string> received;
      for (const MessageArgs &a : recvs) {
        std::string t = usable(a.buffer, true);
        received.insert(squeeze(t));
        if (r.empty() || squeeze(t) == squeeze(s)) r = t;
      }
      if (s.empty()) s = r;
      if (r.empty()) r = s;
      if (s.empty()) return fail(plan, "the buffer is named by variables of the loop only");
      if (received.size() > 1)
        plan.review.push_back("the receivers used several buffers; all now receive into " + r);
      std::string buf = squeeze(s) == squeeze(r) ? s : "(" + rank + " == " + root + " ? (void *)(" + s +
                                                           ") : (void *)(" + r + "))";
      call = fn("MPI_Bcast", "cz_bcast") + "(" + buf + ", " + count + ", " + type + ", " + root + ", " +
             comm + ")";
      leaves(plan, buf, "", false);
    } else if (k == "scatter" || k == "gather") {
      bool scatter = k == "scatter";
      // The root's side is the whole array; the others' side is one block.
      const std::vector<MessageArgs> &rootSide = scatter ? sends : recvs, &memberSide = scatter ? recvs : sends;
      if (rootSide.empty() || memberSide.empty())
        return fail(plan, "the sites show only one side of the " + k);
      if (!local(rootSide[0].buffer))
        return fail(plan, "the root " + std::string(scatter ? "sends every block from" : "receives every block into") +
                              " the same place (" + src.of(rootSide[0].buffer) + "): no " + k +
                              " buffer to hand to MPI");
      std::string whole = usable(rootSide[0].buffer, true);
      if (whole.empty()) return fail(plan, "the root's buffer is named by variables of the loop only");
      // Rank q's block at whole + q * count, and room for all of them.
      std::string misplaced = checkBlockPlacement(args, rootSide, count, scatter ? "sends" : "receives");
      if (!misplaced.empty()) return fail(plan, misplaced);
      std::string tooSmall = checkExtent(args, rootSide[0].buffer, match.bytesPerInstance,
                                         scatter ? "reads" : "writes");
      if (!tooSmall.empty()) return fail(plan, tooSmall);
      std::string block = usable(memberSide[0].buffer, false);
      bool inPlace = squeeze(baseText(memberSide[0].buffer)) == squeeze(whole);
      if (inPlace) {
        // Each rank's block sits in the same array, at its own position; the
        // root's is already in place.
        std::string own = block;
        if (own.empty()) {
          if (pointeeIsVoid(rootSide[0].buffer))
            return fail(plan, "the blocks are addressed in a void * buffer: cannot form each rank's block");
          own = "(" + whole + ") + " + rank + " * (" + count + ")";
          plan.review.push_back("assumes rank r's block sits at " + whole + " + r * " + count +
                                " on every rank, as in the root's buffer");
        }
        block = "(" + rank + " == " + root + " ? MPI_IN_PLACE : " + own + ")";
        // The root's block stays where every rank's own block is.
        if (scatter) leaves(plan, own, "", false);
      } else if (block.empty()) {
        return fail(plan, "each rank's block is named by variables of the loop only");
      } else {
        ownBlock(plan, scatter, whole, block, memberSide[0].buffer, rootSide[0].buffer);
        if (scatter) leaves(plan, block, "", false);
      }
      if (!scatter) leaves(plan, whole, root, true);
      call = scatter ? "MPI_Scatter(" + whole + ", " + count + ", " + type + ", " + block + ", " + count +
                           ", " + type + ", " + root + ", " + comm + ")"
                     : "MPI_Gather(" + block + ", " + count + ", " + type + ", " + whole + ", " + count +
                           ", " + type + ", " + root + ", " + comm + ")";
    } else if (k == "allgather" || k == "alltoall") {
      if (sends.empty() || recvs.empty()) return fail(plan, "the sites show only one side of the " + k);
      // MPI_Allgather leaves the blocks in rank order; code written for
      // another order reads the wrong blocks after the call, and only a
      // person can change that code with it.
      if (k == "allgather" && !match.recvLayout.empty())
        return fail(plan, std::string("the blocks are received ") +
                              (match.recvLayout == "rotated"
                                   ? "in distance order (rank me+d's block d blocks from the start, "
                                     "the own block first, as Bruck's allgather leaves them)"
                                   : "in an order of the program's own") +
                              ", not in the rank order MPI_Allgather leaves them in: swapping the "
                              "messages for the call would reorder the buffer under the code that "
                              "reads it; replace the exchange and change that code by hand");
      if (k == "alltoall" && (!match.recvLayout.empty() || !match.sendLayout.empty()))
        return fail(plan, "the blocks are " +
                              std::string(!match.sendLayout.empty() ? "sent" : "") +
                              (!match.sendLayout.empty() && !match.recvLayout.empty() ? " and " : "") +
                              (!match.recvLayout.empty() ? "received" : "") +
                              " in another order than the rank order MPI_Alltoall keeps them in "
                              "(the report's send_layout/recv_layout): swapping the messages for "
                              "the call would reorder the buffers under the code that fills and "
                              "reads them; replace the exchange and change that code by hand");
      if (!local(recvs[0].buffer) && k == "allgather") {
        std::string ring = ringCall(plan, ringAllreduceCall);
        if (!plan.whyNot.empty()) return plan;
        if (!ring.empty()) return finish(plan, ring);
      }
      if (!local(recvs[0].buffer))
        return fail(plan, "every block is received into the same place (" + src.of(recvs[0].buffer) +
                              "): the program copies the blocks elsewhere (Bruck-style packing) or "
                              "consumes them as they arrive, so the messages' buffers are not the " +
                              k + "'s; its send and receive buffers must be chosen by hand");
      std::string in = usable(recvs[0].buffer, true);
      std::string out = usable(sends[0].buffer, k == "alltoall");
      std::string outBase = usable(sends[0].buffer, true);
      if (in.empty()) return fail(plan, "the receive buffer is named by variables of the loop only");
      if (k == "allgather" && squeeze(outBase) == squeeze(in)) {
        out = "MPI_IN_PLACE";
        plan.notes.push_back("every rank's own block already sits in " + in + ": MPI_IN_PLACE");
      } else if (k == "alltoall" && squeeze(out) == squeeze(in)) {
        out = "MPI_IN_PLACE";
      }
      if (out.empty()) return fail(plan, "the send buffer is named by variables of the loop only");
      long long whole = k == "allgather" ? match.bytesPerInstance * (long long)match.ranks.size()
                                         : match.bytesPerInstance;
      std::string tooSmall = checkExtent(args, recvs[0].buffer, whole, "writes");
      if (tooSmall.empty() && k == "alltoall") tooSmall = checkExtent(args, sends[0].buffer, whole, "reads");
      if (!tooSmall.empty()) return fail(plan, tooSmall);
      // With MPI_IN_PLACE the send count and type are ignored: the receive
      // side's are repeated rather than a constant the source never wrote.
      call = fn(k == "allgather" ? "MPI_Allgather" : "MPI_Alltoall", k == "allgather" ? "cz_allgather" : "cz_alltoall") +
             "(" + out + ", " + count + ", " + type + ", " + in + ", " + count + ", " + type + ", " + comm + ")";
      leaves(plan, in, "", true);
    } else if (k == "allreduce" && std::count(match.unproven.begin(), match.unproven.end(), "combined")) {
      // Every block reached every rank through one receive buffer: an
      // allreduce only when the source combines each one as it arrives.
      std::string ring = ringCall(plan, ringAllreduceCall);
      if (!plan.whyNot.empty()) return plan;
      if (ring.empty())
        return fail(plan, "every block arrives in one place (" + src.of(recvs[0].buffer) +
                              "), and the source does not combine them as they arrive (a ring "
                              "summing into an accumulator): an allgather whose blocks are copied "
                              "out, or consumed, is not rewritten");
      return finish(plan, ring);
    } else if (k == "reduce_scatter") {
      call = ringCall(plan, ringReduceScatterCall);
      if (call.empty()) return plan;
    } else if (k == "reduce" || k == "allreduce") {
      std::string op = match.op, fromSource = sourceOp();
      if (op.empty() && fromSource.empty())
        return fail(plan, "the reduction's operation is known neither from the values (payloads over 8 "
                          "bytes, or values several operations fit) nor from the source's combine step");
      if (!fromSource.empty()) {
        if (!op.empty() && op != fromSource)
          plan.review.push_back("the source combines with " + fromSource + " but the traced values fit " + op +
                                " only");
        op = fromSource;
        plan.notes.push_back("operation " + op + " from the combine step in the source");
      } else {
        plan.review.push_back("operation " + op + " is inferred from the traced values only; the source's "
                              "combine step was not recognised");
      }
      if (sends.empty()) return fail(plan, "no send site of the reduction");
      std::string acc = usable(sends[0].buffer, false);
      if (acc.empty()) return fail(plan, "the accumulated buffer is named by variables of the loop only");
      if (k == "reduce")
        call = "MPI_Reduce(" + rank + " == " + root + " ? MPI_IN_PLACE : " + acc + ", " + acc + ", " + count +
               ", " + type + ", " + op + ", " + root + ", " + comm + ")";
      else
        call = "MPI_Allreduce(MPI_IN_PLACE, " + acc + ", " + count + ", " + type + ", " + op + ", " + comm + ")";
      leaves(plan, acc, k == "reduce" ? root : "", false);
      plan.notes.push_back("the result is left in " + acc + ", where the hand-made reduction accumulated it");
    } else if (k == "scan" || k == "exscan") {
      // A prefix reduction: every rank's result depends on its rank, and
      // the hand-made code may keep it where no message shows. An
      // inclusive scan left in the buffer the ranks send from is the one
      // shape the reduction machinery can name, and only for review.
      std::string op = match.op, fromSource = sourceOp();
      if (!fromSource.empty()) op = fromSource;
      if (op.empty())
        return fail(plan, "the prefix reduction's operation is known neither from the values nor from the "
                          "source's combine step");
      if (!match.op.empty() && op != match.op)
        return fail(plan, "the source combines with " + op + " but the traced values fit " + match.op + " only");
      if (k == "exscan")
        return fail(plan, "an exclusive prefix reduction (MPI_Exscan): each rank's result is what it "
                          "received and its own value is sent separately; the region analysis cannot pair "
                          "the two buffers, replace it by hand with MPI_Exscan(sendbuf, recvbuf, " + count +
                          ", " + type + ", " + op + ", " + comm + ")");
      if (sends.empty()) return fail(plan, "no send site of the prefix reduction");
      std::string acc = usable(sends[0].buffer, false);
      if (acc.empty())
        return fail(plan, "the buffer the ranks send their partial results from is named by variables of the "
                          "loop only: replace it by hand with MPI_Scan(sendbuf, recvbuf, " + count + ", " +
                          type + ", " + op + ", " + comm + ")");
      call = "MPI_Scan(MPI_IN_PLACE, " + acc + ", " + count + ", " + type + ", " + op + ", " + comm + ")";
      plan.review.push_back("a prefix reduction: check that " + acc + " holds the rank's own value where the "
                            "region starts and its partial result where it ends (the hand-made code may keep "
                            "the result elsewhere)");
      plan.effectWhyNot = "no effect check for a prefix reduction";
    } else {
      return fail(plan, "no rewrite for kind '" + k + "'");
    }
    return finish(plan, call);
  }

private:
  const SourceText &src;
  const RegionPlan &region;
  const DetectedMatch &match;
  Target target;
  std::vector<MessageArgs> sends, recvs;
  FunctionFlow flow;
  ArgumentContext args;
  std::string comm, count, type, root, rank;
  std::string rankDecl; // when the function has no rank variable
  bool runtimeUsed = false;

  CallPlan &fail(CallPlan &plan, const std::string &why) {
    plan.ok = false;
    plan.whyNot = why;
    return plan;
  }

  std::string fn(const std::string &mpi, const std::string &runtime) {
    if (target != Target::Runtime) return mpi;
    runtimeUsed = true;
    return runtime;
  }

  bool local(const Expr *e) const { return mentions(e, region.regionLocals); }

  // The argument as written when valid at the region; with base, the array
  // under an offset (`all + q * n`, `&all[q * n]` -> all).
  std::string usable(const Expr *e, bool base) const {
    if (!local(e)) return src.of(e);
    if (!base) return "";
    return baseText(e);
  }

  // The array under any offset, valid at the region, or "". A pointer the
  // loop declares (`float *piece = data + s * SEG`) is looked through.
  std::string baseText(const Expr *e) const {
    const Expr *s = strip(e);
    for (int depth = 0; depth < 8; depth++) {
      if (const auto *d = dyn_cast<DeclRefExpr>(s)) {
        const auto *v = dyn_cast<VarDecl>(d->getDecl());
        if (v && region.regionLocals.count(v) && v->getInit() && v->getType()->isPointerType()) {
          s = strip(v->getInit());
          continue;
        }
        break;
      }
      if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAdditiveOp() && b->getLHS()->getType()->isPointerType()) {
        s = strip(b->getLHS());
      } else if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_AddrOf &&
                                                              isa<ArraySubscriptExpr>(strip(u->getSubExpr()))) {
        s = strip(cast<ArraySubscriptExpr>(strip(u->getSubExpr()))->getBase());
      } else {
        break;
      }
    }
    return local(s) ? "" : src.of(s);
  }

  // MPI_Allgatherv on the arrays the receives take their counts and
  // displacements from (VaryingArrays.h); without them a suggestion whose
  // placeholders name the arrays to supply.
  CallPlan &allgatherv(CallPlan &plan) {
    if (sends.empty() || recvs.empty()) return fail(plan, "the sites show only one side of the allgatherv");
    if (!typeText(plan) || !buffersHold(plan)) return plan;
    if (!match.recvLayout.empty())
      return fail(plan, "the blocks are received at displacements that differ from rank to rank (the "
                        "report's recv_layout): MPI_Allgatherv keeps one displacement per rank on every rank");
    VaryingArrays v = receiveArrays(args);
    if (v.wrongBlocks) return fail(plan, v.whyNot);
    std::string in = v.counts.empty() ? usable(recvs[0].buffer, true) : v.buffer;
    bool inPlace = !in.empty() && squeeze(baseText(sends[0].buffer)) == squeeze(in);
    // The rank's own block: in place, or the send's buffer and count.
    std::string send = "MPI_IN_PLACE, 0";
    if (!inPlace) {
      std::string buf = usable(sends[0].buffer, false);
      send = buf.empty() || !args.holds(sends[0].count) ? "" : buf + ", " + src.of(sends[0].count);
    }
    if (v.counts.empty()) {
      plan.suggestion = "MPI_Allgatherv(" + (send.empty() ? "<sendbuf>, <sendcount>" : send) + ", " + type + ", " +
                        (in.empty() ? "<recvbuf>" : in) + ", <recvcounts>, <displs>, " + type + ", " + comm + ")";
      plan.notes = v.placeholderNotes;
      return fail(plan, "no arrays of counts and displacements in the source for MPI_Allgatherv: " + v.whyNot +
                        "; the rationale suggests " + plan.suggestion + ", its arrays to supply by hand");
    }
    if (send.empty())
      return fail(plan, "each rank's own block is named by variables of the loop only: no send buffer and count "
                        "to hand to MPI_Allgatherv");
    plan.notes.insert(plan.notes.end(), v.notes.begin(), v.notes.end());
    if (inPlace)
      plan.notes.push_back("every rank's own block already sits in " + in + ", at its displacement: MPI_IN_PLACE");
    else
      plan.review.push_back("MPI_Allgatherv also stores each rank's own block at its displacement in " + in +
                            ", which the original never wrote: check nothing reads that place expecting its old "
                            "contents");
    plan.review.insert(plan.review.end(), v.review.begin(), v.review.end());
    plan.effectWhyNot = "no effect check for MPI_Allgatherv: its blocks differ in count";
    return finish(plan, "MPI_Allgatherv(" + send + ", " + type + ", " + in + ", " + v.counts + ", " + v.displs +
                            ", " + type + ", " + comm + ")");
  }

  // The two loops of a ring allreduce (RingTwoPhase.h): the call counts
  // P blocks of the messages' count, which is not the trace's whole count
  // chooseCount looks for. True when the plan is decided: the call, or why
  // not; a trace that left the operation open is settled by nothing else
  // (Rewrite.cpp settledBySource).
  bool twoPhaseRing(CallPlan &plan) {
    TwoPhaseRing ring = analyzeTwoPhaseRing(src, sends, recvs, comm);
    if (!ring.found) {
      if (!std::count(match.unproven.begin(), match.unproven.end(), "reduction_op")) return false;
      return fail(plan, "the trace does not show the reduction's operation, and the sites are not the two "
                        "loops of a ring allreduce (a ring combining blocks of one buffer, then a ring "
                        "forwarding them) whose combine step and block placement the rewriter proves"), true;
    }
    if (ring.count) count = src.of(ring.count); // ringTwoPhaseAllreduceCall checks it
    if (!typeText(plan) || !buffersHold(plan)) return true;
    rank = rankText();
    std::string call = ringCall(plan, ringTwoPhaseAllreduceCall);
    if (!call.empty()) plan.effect.perRankBlocks = true, finish(plan, call); // all P blocks of the accumulator
    return true;
  }

  CallPlan &alltoallv(CallPlan &plan) {
    if (!buffersHold(plan)) return plan;
    VaryingCall v = alltoallvCall(args, comm);
    plan.notes.insert(plan.notes.end(), v.notes.begin(), v.notes.end());
    plan.review.insert(plan.review.end(), v.review.begin(), v.review.end());
    plan.suggestion = v.suggestion;
    if (v.call.empty()) return fail(plan, v.whyNot);
    plan.effectWhyNot = "no effect check for MPI_Alltoallv: its blocks differ in count";
    return finish(plan, v.call);
  }

  // A ring's call (RingCalls.h), and the buffer it leaves its result in.
  std::string ringCall(CallPlan &plan, const RingCallBuilder &build) {
    std::string leftIn, call = build(args, {comm, count, type, rank}, plan, leftIn);
    if (!call.empty()) leaves(plan, leftIn, "", false);
    return call;
  }

  std::string sourceOp() const {
    std::set<const VarDecl *> acc;
    for (const MessageArgs &a : sends)
      if (const VarDecl *v = referencedVar(a.buffer)) acc.insert(v);
    return combineOp(src, region.patterns, acc);
  }

  bool pointeeIsVoid(const Expr *e) const {
    QualType t = strip(e)->getType();
    return t->isPointerType() && t->getPointeeType()->isVoidType();
  }

  bool commText(CallPlan &plan) {
    std::set<std::string> seen;
    for (const auto *list : {&sends, &recvs})
      for (const MessageArgs &a : *list) {
        if (local(a.comm)) return fail(plan, "the communicator changes inside the loop"), false;
        seen.insert(squeeze(src.of(a.comm)));
        if (comm.empty()) comm = src.of(a.comm);
      }
    if (seen.size() > 1) {
      std::string all;
      for (const std::string &s : seen) all += (all.empty() ? "" : ", ") + s;
      return fail(plan, "the sites use different communicators (" + all + ")"), false;
    }
    return true;
  }

  static std::vector<MessageArgs> split(const std::vector<SiteCall> &sites, bool send) {
    std::vector<MessageArgs> out;
    for (const SiteCall &s : sites)
      if (s.send == send)
        if (MessageArgs a = messageArgs(s.call, s.callee, s.send); a.valid()) out.push_back(a);
    return out;
  }

  // A variable both in the peers sent to and in the peers received from
  // is the rank itself (`me + 1` and `me - 1` in a chain), whether or not
  // MPI_Comm_rank fills it in this function: a root is never both.
  static std::set<const VarDecl *> rankLike(const std::vector<MessageArgs> &sends,
                                            const std::vector<MessageArgs> &recvs) {
    std::set<const VarDecl *> to, from, both;
    auto vars = [](const std::vector<MessageArgs> &list, std::set<const VarDecl *> &out) {
      for (const MessageArgs &a : list)
        forEachStmt(a.peer, [&](const Stmt *x) {
          if (const auto *d = dyn_cast<DeclRefExpr>(x))
            if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) out.insert(v);
        });
    };
    vars(sends, to);
    vars(recvs, from);
    for (const VarDecl *v : to)
      if (from.count(v)) both.insert(v);
    return both;
  }

  // Without MPI_IN_PLACE the call also moves the root's own block:
  // MPI_Gather writes the root's block into its slot of the whole buffer,
  // MPI_Scatter writes the root's slot into its block. The original did
  // that only if its kept work copies it (or the detector saw the root
  // declare its own block).
  void ownBlock(CallPlan &plan, bool scatter, const std::string &whole, const std::string &block,
                const Expr *memberBuffer, const Expr *wholeBuffer) {
    const VarDecl *written = referencedVar(scatter ? memberBuffer : wholeBuffer);
    if ((written && region.keptWrites.count(written)) || match.note.find("cz_send_to_self") != std::string::npos) {
      plan.notes.push_back("the root's own block: copied by the code kept around the call, as the call does");
      return;
    }
    plan.review.push_back(
        scatter ? "MPI_Scatter also copies the root's slot of " + whole + " into " + block +
                      " on the root, which the original never wrote: check the root does not need its old contents"
                : "MPI_Gather also copies the root's " + block + " into its slot of " + whole +
                      ", which the original never wrote: check nothing reads that slot expecting its old contents");
  }

  // An argument chosen by Arguments.cpp, or the reason there is none.
  bool take(const Chosen &chosen, std::string &into, CallPlan &plan) {
    if (chosen.text.empty()) return fail(plan, chosen.whyNot), false;
    into = chosen.text;
    plan.notes.insert(plan.notes.end(), chosen.notes.begin(), chosen.notes.end());
    plan.review.insert(plan.review.end(), chosen.review.begin(), chosen.review.end());
    return true;
  }

  std::string rankList() const {
    std::string s;
    for (size_t i = 0; i < match.ranks.size(); i++) s += (i ? ", " : "") + std::to_string(match.ranks[i]);
    return "[" + s + "]";
  }

  // A buffer pointer that the region moves (`buf = next`) names another
  // place at the patch point than at the sites.
  bool buffersHold(CallPlan &plan) {
    // A combining ring that swaps its send and receive pointers each step
    // is replaced whole by a call on its accumulator, which names neither
    // (ringAllreduceCall judges the ring).
    std::set<const VarDecl *> swapped;
    if (match.kind == "allgather" || match.kind == "allreduce") {
      RingCombine ring = analyzeRing(src, sends, recvs, comm);
      if (ring.found && ring.swaps) swapped = {ring.pass, ring.got};
    }
    for (const auto *list : {&sends, &recvs})
      for (const MessageArgs &a : *list) {
        // Down to the pointer the address comes from; `&x` is x's own place.
        const Expr *e = strip(a.buffer);
        while (true) {
          if (const auto *s = dyn_cast<ArraySubscriptExpr>(e)) e = strip(s->getBase());
          else if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp() && b->getLHS()->getType()->isPointerType()) e = strip(b->getLHS());
          else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf &&
                                                             isa<ArraySubscriptExpr>(strip(u->getSubExpr()))) e = strip(u->getSubExpr());
          else break;
        }
        const auto *d = dyn_cast<DeclRefExpr>(e);
        const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
        if (v && v->getType()->isPointerType() && !region.regionLocals.count(v) && !swapped.count(v) &&
            flow.valueWrittenIn(v, region.begin, region.end, args.precede))
          return fail(plan, "the buffer pointer '" + v->getNameAsString() + "' changes inside the region (line " +
                                std::to_string(args.line(a.buffer)) + " uses it): no single buffer to hand to MPI"),
                 false;
      }
    return true;
  }

  bool typeText(CallPlan &plan) {
    std::set<std::string> texts;
    for (const auto *list : {&sends, &recvs})
      for (const MessageArgs &a : *list) texts.insert(squeeze(src.of(a.datatype)));
    const MessageArgs &first = sends.empty() ? recvs[0] : sends[0];
    if (local(first.datatype)) return fail(plan, "the datatype changes inside the loop"), false;
    type = src.of(first.datatype);
    if (texts.size() > 1)
      plan.review.push_back("the sites name different datatypes; " + type + " is used");
    return true;
  }

  std::string rankText() {
    for (const VarDecl *v : region.rankVariables)
      if (src.offset(v->getLocation()) < region.begin && !region.regionLocals.count(v))
        return v->getNameAsString();
    // A name of the patch's own: the root or the buffers may be spelled
    // with a program variable called cz_rank.
    std::string name = unusedName(src.ctx, "cz_rank");
    rankDecl = "int " + name + ";\nMPI_Comm_rank(" + comm + ", &" + name + ");\n";
    return name;
  }

  // The call's output buffer (the probe's arguments at the region's end):
  // buffer at root (every rank when root is ""), count elements, per rank
  // of the communicator with perRankBlocks. A buffer naming the rank the
  // patch itself declares (cz_rank) is no expression of the original code.
  void leaves(CallPlan &plan, const std::string &buffer, const std::string &at, bool perRankBlocks) {
    if (!rankDecl.empty() && buffer.find(rank) != std::string::npos) {
      plan.effectWhyNot = "the output buffer (" + buffer + ") depends on the rank, which the code "
                          "around the region does not name";
      return;
    }
    plan.hasEffect = true;
    plan.effect = {false, buffer, count, type, comm, at, perRankBlocks};
  }

  CallPlan &finish(CallPlan &plan, const std::string &call) {
    std::string body = call + ";";
    bool rankUsed = !rankDecl.empty() && body.find(rank) != std::string::npos;
    if (!region.wrapperMacro.empty()) {
      size_t at = body.find(call);
      if (at != std::string::npos) body.replace(at, call.size(), region.wrapperMacro + "(" + call + ")");
      plan.notes.push_back("wrapped in " + region.wrapperMacro + "(...) like the calls it replaces");
    }
    if (rankUsed && !rankDecl.empty()) body = rankDecl + body;
    if (body.find('\n') != std::string::npos) body = "{\n" + indentLines(body) + "\n}";
    plan.code = body;
    plan.usesRuntime = runtimeUsed;
    if (target == Target::Runtime && !runtimeUsed)
      plan.notes.push_back("Collectivize's runtime has no " + match.kind + ": the MPI collective is used");
    if (!plan.hasEffect && plan.effectWhyNot.empty())
      plan.effectWhyNot = "no output buffer recorded for " + match.kind;
    plan.ok = true;
    return plan;
  }
};

} // namespace

CallPlan buildCall(const SourceText &src, const RegionPlan &region, const DetectedMatch &match,
                   const std::vector<SiteCall> &sites, Target target, int group) {
  return Builder(src, region, match, sites, target, group).run();
}

} // namespace cz::rewrite
