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

#include "CallBuilder.h"
#include "AlltoallvCall.h"
#include "Arguments.h"
#include "AstQueries.h"
#include "BlockLayout.h"
#include "CombineStep.h"
#include "HalvingExchange.h"
#include "RingCalls.h"
#include "RingCombine.h"
#include "RingReduceScatter.h"
#include "RingTwoPhase.h"
#include "RootedVaryingCall.h"
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

CallPlan CallBuilder::run() {
  CallPlan plan;
  const std::string &k = match.kind;
  bool rooted = k == "bcast" || k == "scatter" || k == "gather" || k == "reduce";
  // The kinds with a call shape below; the v forms need a count and a
  // displacement per rank, as arrays the source holds (VaryingArrays.h;
  // a count seen in the trace never becomes a literal).
  static const std::set<std::string> shaped = {"bcast",     "scatter",   "gather",  "reduce", "allreduce",
                                               "allgather", "alltoall",  "barrier", "scan",   "exscan",
                                               "reduce_scatter", "allgatherv", "alltoallv",
                                               "gatherv",        "scatterv"};
  if (!shaped.count(k))
    return fail(plan, "no patch shape for " + k + " yet");
  if (sends.empty() && recvs.empty()) return fail(plan, "no send or receive arguments at the sites");
  if (match.subset)
    return fail(plan, "the collective runs on a part of its communicator (ranks " + rankList() +
                          "): the source has no communicator holding exactly that group; create it "
                          "(MPI_Comm_split) and call the collective on it by hand");
  if (!commText(plan)) return plan;
  if (k == "allgatherv") return allgatherv(plan);
  if (k == "alltoallv") return alltoallv(plan);
  if (k == "gatherv" || k == "scatterv") return rootedVarying(plan);
  if (k == "barrier") {
    plan.hasEffect = true;
    plan.effect.barrier = true;
    plan.effect.comm = comm;
    return finish(plan, "MPI_Barrier(" + comm + ")");
  }
  if ((k == "reduce_scatter" || k == "allreduce") && halving(plan)) return plan;
  if (k == "reduce_scatter") // a ring it refuses whatever the count (unequal blocks): why
    if (RingReduceScatter ring = analyzeReduceScatterRing(src, sends, recvs, comm); !ring.whyNot.empty())
      return fail(plan, ring.whyNot);
  if (k == "allreduce" && twoPhaseRing(plan)) return plan;
  if (!take(chooseCount(args), count, plan) || !typeText(plan)) return plan;
  if (k == "scan" || k == "exscan" || (k == "reduce" && !match.confirmed)) return prefix(plan);
  if (k == "reduce") { // a chain leaving every rank its partial result: MPI_Reduce would not
    CallPlan trial = plan;
    rank = rankText();
    if (std::string call = ringCall(trial, prefixChainCall); !call.empty()) return plan = trial, finish(plan, call);
  }
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
    // MPI defines no arithmetic on raw bytes (MPI_BYTE, MPI_PACKED: the
    // bitwise operations only) nor any operation on MPI_CHAR: the hand-made
    // reduction combines typed values it sends as bytes, which a patch would
    // have to name with their own type and count.
    const bool bitwise = op == "MPI_BAND" || op == "MPI_BOR" || op == "MPI_BXOR";
    if (type == "MPI_CHAR" || ((type == "MPI_BYTE" || type == "MPI_PACKED") && !bitwise))
      return fail(plan, "the messages are typed " + type + ", on which MPI defines no " + op +
                            ": the hand-made " + k + " combines values it sends as bytes; a patch needs "
                            "their own datatype and count (e.g. MPI_LONG and the element count)");
    std::string acc = usable(sends[0].buffer, false);
    if (acc.empty()) return fail(plan, "the accumulated buffer is named by variables of the loop only");
    // As the rings, halvings and chains say: another order of additions.
    static const std::set<std::string> floating = {"MPI_FLOAT", "MPI_DOUBLE", "MPI_LONG_DOUBLE",
                                                   "MPI_C_FLOAT_COMPLEX", "MPI_C_DOUBLE_COMPLEX"};
    if (floating.count(type) && (op == "MPI_SUM" || op == "MPI_PROD"))
      plan.review.push_back("the hand-made " + k + " combines in its own order; " +
                            (k == "reduce" ? "MPI_Reduce" : "MPI_Allreduce") +
                            "'s order may round the floating-point result differently");
    if (k == "reduce")
      call = "MPI_Reduce(" + rank + " == " + root + " ? MPI_IN_PLACE : " + acc + ", " + acc + ", " + count +
             ", " + type + ", " + op + ", " + root + ", " + comm + ")";
    else
      call = "MPI_Allreduce(MPI_IN_PLACE, " + acc + ", " + count + ", " + type + ", " + op + ", " + comm + ")";
    leaves(plan, acc, k == "reduce" ? root : "", false);
    plan.notes.push_back("the result is left in " + acc + ", where the hand-made reduction accumulated it");
  } else {
    return fail(plan, "no rewrite for kind '" + k + "'");
  }
  return finish(plan, call);
}

CallPlan &CallBuilder::prefix(CallPlan &plan) {
  const std::string &k = match.kind;
  rank = rankText();
  std::string call = ringCall(plan, prefixChainCall);
  if (!call.empty()) return finish(plan, call);
  std::string chain = plan.whyNot; // the chain's refusal, if the sites are one
  plan.whyNot.clear(), plan.ok = false;
  if (!match.confirmed) // the trace left the operation open; only a proven chain answers it
    return fail(plan, "an ambiguous match (the trace does not prove: reduction_op; the detection report's note "
                      "says what would settle it): " + (chain.empty() ? "the sites are no chain of ranks the "
                      "rewriter runs" : chain));
  if (k == "reduce") return fail(plan, "no patch shape for this reduce");
  // Not proven a chain: the reduction machinery names an inclusive scan
  // left in the buffer the ranks send from, for review.
  std::string op = match.op, fromSource = sourceOp();
  if (!fromSource.empty()) op = fromSource;
  if (op.empty())
    return fail(plan, "the prefix reduction's operation is known neither from the values nor from the "
                      "source's combine step");
  if (!match.op.empty() && op != match.op)
    return fail(plan, "the source combines with " + op + " but the traced values fit " + match.op + " only");
  std::string byHand = (k == "exscan" ? "MPI_Exscan" : "MPI_Scan") + std::string("(sendbuf, recvbuf, ") + count +
                       ", " + type + ", " + op + ", " + comm + ")";
  if (k == "exscan")
    return fail(plan, "an exclusive prefix reduction (MPI_Exscan): " +
                          (chain.empty() ? std::string("the sites are no chain of ranks the rewriter runs") : chain) +
                          "; replace it by hand with " + byHand);
  if (sends.empty()) return fail(plan, "no send site of the prefix reduction");
  if (!buffersHold(plan)) return plan;
  std::string acc = usable(sends[0].buffer, false);
  if (acc.empty())
    return fail(plan, "the buffer the ranks send their partial results from is named by variables of the "
                      "loop only" + (chain.empty() ? "" : " (not proven a chain: " + chain + ")") +
                      ": replace it by hand with " + byHand);
  plan.review.push_back("a prefix reduction: check that " + acc + " holds the rank's own value where the "
                        "region starts and its partial result where it ends (the hand-made code may keep "
                        "the result elsewhere)");
  if (!chain.empty()) plan.review.push_back("not proven a chain: " + chain);
  plan.effectWhyNot = "no effect check for a prefix reduction the rewriter did not prove";
  return finish(plan, "MPI_Scan(MPI_IN_PLACE, " + acc + ", " + count + ", " + type + ", " + op + ", " + comm + ")");
}

CallPlan &CallBuilder::allgatherv(CallPlan &plan) {
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

bool CallBuilder::twoPhaseRing(CallPlan &plan) {
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

bool CallBuilder::halving(CallPlan &plan) {
  if (!exchangesWithXorPartner(sends, recvs)) return false;
  HalvingExchange h = analyzeHalving(src, sends, recvs, comm, match.kind == "allreduce");
  if (!h.found) return false;
  if (!typeText(plan)) return true;
  rank = rankText();
  if (h.block) count = src.of(h.block);
  std::string call = ringCall(plan, [&h](const ArgumentContext &a, const CallWords &w, CallPlan &p, std::string &in) {
    return halvingCall(h, a, w, p, in);
  });
  if (call.empty() || !buffersHold(plan)) return true;
  if (match.kind == "allreduce") plan.effect.perRankBlocks = true;
  finish(plan, call);
  return true;
}

CallPlan &CallBuilder::alltoallv(CallPlan &plan) {
  if (!buffersHold(plan)) return plan;
  return varying(plan, alltoallvCall(args, comm), "MPI_Alltoallv");
}

CallPlan &CallBuilder::rootedVarying(CallPlan &plan) {
  if (!buffersHold(plan) || !take(chooseRoot(args), root, plan)) return plan;
  rank = rankText();
  bool scatter = match.kind == "scatterv";
  return varying(plan, rootedVaryingCall(args, comm, root, rank, scatter), scatter ? "MPI_Scatterv" : "MPI_Gatherv");
}

CallPlan &CallBuilder::varying(CallPlan &plan, const VaryingCall &v, const std::string &mpiCall) {
  plan.notes.insert(plan.notes.end(), v.notes.begin(), v.notes.end());
  plan.review.insert(plan.review.end(), v.review.begin(), v.review.end());
  plan.suggestion = v.suggestion;
  if (v.call.empty()) return fail(plan, v.whyNot);
  plan.effectWhyNot = "no effect check for " + mpiCall + ": its blocks differ in count";
  return finish(plan, v.call);
}

std::string CallBuilder::ringCall(CallPlan &plan, const RingCallBuilder &build) {
  std::string leftIn, call = build(args, {comm, count, type, rank}, plan, leftIn);
  if (!call.empty()) leaves(plan, leftIn, "", false);
  return call;
}

std::string CallBuilder::sourceOp() const {
  std::set<const VarDecl *> acc;
  for (const MessageArgs &a : sends)
    if (const VarDecl *v = referencedVar(a.buffer)) acc.insert(v);
  return combineOp(src, region.patterns, acc);
}

void CallBuilder::ownBlock(CallPlan &plan, bool scatter, const std::string &whole, const std::string &block,
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

CallPlan buildCall(const SourceText &src, const RegionPlan &region, const DetectedMatch &match,
                   const std::vector<SiteCall> &sites, Target target, int group) {
  return CallBuilder(src, region, match, sites, target, group).run();
}

} // namespace cz::rewrite
