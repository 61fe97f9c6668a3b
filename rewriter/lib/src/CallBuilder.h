// CallBuilder.h: the state and steps of building one replacement call
// (private to the rewriter library). Replacement.cpp holds the per-kind
// calls; CallBuilderText.cpp the argument texts valid at the region and
// the patch statement that ends every kind.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "collectivize/rewrite/Replacement.h"

#include "AlltoallvCall.h"
#include "Arguments.h"
#include "AstQueries.h"
#include "DataFlow.h"
#include "RingCalls.h"

namespace cz::rewrite {

class CallBuilder {
public:
  CallBuilder(const SourceText &src, const RegionPlan &region, const DetectedMatch &match,
          const std::vector<SiteCall> &sites, Target target, int group)
      : src(src), region(region), match(match), target(target), sends(split(sites, true)),
        recvs(split(sites, false)), flow(src, region.function, rankLike(sends, recvs)),
        args{src, region, match, flow, sends, recvs,
             region.precede.count(group) ? region.precede.at(group) : FunctionFlow::Ranges{}} {}
  CallPlan run();

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
  CallPlan &fail(CallPlan &plan, const std::string &why);
  std::string fn(const std::string &mpi, const std::string &runtime);
  bool local(const clang::Expr *e) const { return mentions(e, region.regionLocals); }

  // The argument as written when valid at the region; with base, the array
  // under an offset (`all + q * n`, `&all[q * n]` -> all).
  std::string usable(const clang::Expr *e, bool base) const;

  // The array under any offset, valid at the region, or "". A pointer the
  // loop declares (`float *piece = data + s * SEG`) is looked through.
  std::string baseText(const clang::Expr *e) const;

  // MPI_Allgatherv on the arrays the receives take their counts and
  // displacements from (VaryingArrays.h); without them a suggestion whose
  // placeholders name the arrays to supply.
  CallPlan &allgatherv(CallPlan &plan);

  // The two loops of a ring allreduce (RingTwoPhase.h): the call counts
  // P blocks of the messages' count, which is not the trace's whole count
  // chooseCount looks for. True when the plan is decided: the call, or why
  // not; a trace that left the operation open is settled by nothing else
  // (Rewrite.cpp settledBySource).
  bool twoPhaseRing(CallPlan &plan);
  // A recursive halving (reduce_scatter) or Rabenseifner's allreduce
  // (RingCalls.h halvingCall): decided (true) when the sites exchange with
  // `rank ^ mask` partners in such loops.
  bool halving(CallPlan &plan);
  // scan, exscan, and a reduce the trace left open: a chain the source
  // proves a prefix reduction (PrefixChain.h), else why not.
  CallPlan &prefix(CallPlan &plan);
  CallPlan &alltoallv(CallPlan &plan);
  // MPI_Gatherv, MPI_Scatterv (RootedVaryingCall.h).
  CallPlan &rootedVarying(CallPlan &plan);
  // A v-form call (VaryingCall), or why not.
  CallPlan &varying(CallPlan &plan, const VaryingCall &v, const std::string &mpiCall);

  // A ring's call (RingCalls.h), and the buffer it leaves its result in.
  std::string ringCall(CallPlan &plan, const RingCallBuilder &build);
  std::string sourceOp() const;
  bool pointeeIsVoid(const clang::Expr *e) const;
  bool commText(CallPlan &plan);
  static std::vector<MessageArgs> split(const std::vector<SiteCall> &sites, bool send);

  // A variable both in the peers sent to and in the peers received from
  // is the rank itself (`me + 1` and `me - 1` in a chain), whether or not
  // MPI_Comm_rank fills it in this function: a root is never both.
  static std::set<const clang::VarDecl *> rankLike(const std::vector<MessageArgs> &sends,
                                            const std::vector<MessageArgs> &recvs);

  // Without MPI_IN_PLACE the call also moves the root's own block:
  // MPI_Gather writes the root's block into its slot of the whole buffer,
  // MPI_Scatter writes the root's slot into its block. The original did
  // that only if its kept work copies it (or the detector saw the root
  // declare its own block).
  void ownBlock(CallPlan &plan, bool scatter, const std::string &whole, const std::string &block,
                const clang::Expr *memberBuffer, const clang::Expr *wholeBuffer);

  // An argument chosen by Arguments.cpp, or the reason there is none.
  bool take(const Chosen &chosen, std::string &into, CallPlan &plan);
  std::string rankList() const;

  // A buffer pointer that the region moves (`buf = next`) names another
  // place at the patch point than at the sites.
  bool buffersHold(CallPlan &plan);
  bool typeText(CallPlan &plan);
  std::string rankText();

  // The call's output buffer (the probe's arguments at the region's end):
  // buffer at root (every rank when root is ""), count elements, per rank
  // of the communicator with perRankBlocks. A buffer naming the rank the
  // patch itself declares (cz_rank) is no expression of the original code.
  void leaves(CallPlan &plan, const std::string &buffer, const std::string &at, bool perRankBlocks);
  CallPlan &finish(CallPlan &plan, const std::string &call);
};

} // namespace cz::rewrite
