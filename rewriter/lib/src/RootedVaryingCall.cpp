// RootedVaryingCall.cpp: see RootedVaryingCall.h.
#include "RootedVaryingCall.h"

#include <algorithm>

#include "ArrayFills.h"
#include "AstQueries.h"
#include "RingEvaluator.h"
#include "VaryingArrays.h"

namespace cz::rewrite {

using namespace clang;

namespace {

struct CountProof {
  std::string unshown;       // not evaluated: review
  std::string contradiction; // evaluated, and wrong: no patch
};

// C[q] and D[q] at every root R, n at every member q != R, for each size:
// the counts agree, the root's blocks do not overlap, and at the traced
// size the members' counts are the trace's.
CountProof proveCounts(const ArgumentContext &c, const std::string &comm, const VarDecl *counts,
                       const VarDecl *displs, const Expr *memberCount, bool scatter) {
  CountProof out;
  if (!counts || !displs) return out.unshown = "the arrays are no variables", out;
  ArrayFills fills(c.src, memberCount, comm, c.region.begin);
  std::vector<long> sizes = ringSizes();
  long traced = (long)c.match.ranks.size();
  if (traced > 0 && !std::count(sizes.begin(), sizes.end(), traced)) sizes.push_back(traced);
  const std::string side = scatter ? "sends" : "receives", member = scatter ? "receives" : "sends";
  for (long p : sizes) {
    std::vector<long> n(p);
    for (long q = 0; q < p; q++)
      if (!fills.value(memberCount, p, q, n[q])) return out.unshown = fills.whyNot, out;
    if (p == traced && c.match.counts.size() == (size_t)p)
      for (long q = 0; q < p; q++)
        if (c.match.counts[q] >= 0 && c.match.counts[q] != n[q])
          return out.contradiction = "rank " + std::to_string(q) + " " + member + " " + c.src.of(memberCount) +
                                     " = " + std::to_string(n[q]) + " elements by the source, but the trace "
                                     "shows " + std::to_string(c.match.counts[q]),
                 out;
    for (long root = 0; root < p; root++) {
      std::vector<std::pair<long, long>> blocks;
      for (long q = 0; q < p; q++) {
        if (q == root) continue;
        long count = 0, displ = 0;
        if (!fills.element(counts, q, p, root, count) || !fills.element(displs, q, p, root, displ))
          return out.unshown = fills.whyNot, out;
        std::string at = " at P = " + std::to_string(p) + " with root " + std::to_string(root);
        if (count != n[q])
          return out.unshown = "the root " + side + " " + counts->getNameAsString() + "[" + std::to_string(q) +
                               "] = " + std::to_string(count) + " elements for rank " + std::to_string(q) +
                               ", which " + member + " " + std::to_string(n[q]) + at,
                 out;
        if (count < 0 || displ < 0)
          return out.unshown = "a negative count or displacement" + at, out;
        blocks.push_back({displ, displ + count});
      }
      std::sort(blocks.begin(), blocks.end());
      for (size_t i = 1; i < blocks.size(); i++)
        if (blocks[i].first < blocks[i - 1].second)
          return out.unshown = "the root's blocks overlap at P = " + std::to_string(p) + " with root " +
                               std::to_string(root),
                 out;
    }
  }
  return out;
}

} // namespace

VaryingCall rootedVaryingCall(const ArgumentContext &c, const std::string &comm, const std::string &root,
                              const std::string &rank, bool scatter) {
  VaryingCall out;
  const std::string kind = scatter ? "scatterv" : "gatherv", call = scatter ? "MPI_Scatterv" : "MPI_Gatherv";
  const std::vector<MessageArgs> &rootSide = scatter ? c.sends : c.recvs, &members = scatter ? c.recvs : c.sends;
  if (rootSide.empty() || members.empty()) return out.whyNot = "the sites show only one side of the " + kind, out;
  std::string type = sideType(c, rootSide, scatter ? "sends" : "receives", call, out.whyNot);
  std::string memberType = type.empty() ? "" : sideType(c, members, scatter ? "receives" : "sends", call, out.whyNot);
  if (memberType.empty()) return out;
  SideArrays arrays = sideArrays(c, rootSide, scatter);
  const MessageArgs &m = members[0];
  std::string why;
  bool memberHolds = c.holds(m.buffer, &why) && c.holds(m.count, &why);
  std::string block = memberHolds ? c.src.of(m.buffer) + ", " + c.src.of(m.count) : "";
  if (arrays.counts.empty()) {
    std::string wholeSide = "<" + std::string(scatter ? "sendbuf" : "recvbuf") + ">, <counts>, <displs>";
    std::string memberSide = block.empty() ? (scatter ? "<recvbuf>, <recvcount>" : "<sendbuf>, <sendcount>") : block;
    out.suggestion = call + "(" + (scatter ? wholeSide : memberSide) + ", " + type + ", " +
                     (scatter ? memberSide : wholeSide) + ", " + memberType + ", " + root + ", " + comm + ")";
    out.notes.push_back("<counts>, <displs>: two int arrays the root must supply, one element per rank of the "
                        "communicator: element q is the count of rank q's block and where it starts in the "
                        "root's buffer, in elements of its datatype; no count the trace saw is used");
    out.whyNot = "no arrays of counts and displacements in the source for " + call + ": " + arrays.whyNot +
                 "; the rationale suggests " + out.suggestion + ", its arrays to supply by hand";
    return out;
  }
  if (!arrays.indexIsPeer)
    return out.whyNot = "the root takes each block at index `" + arrays.index + "`, not the rank it exchanges it "
                        "with: " + call + " moves block q to or from rank q, which the rewriter proves only for "
                        "a direct exchange",
           out;
  if (!memberHolds)
    return out.whyNot = "each rank's own block (" + textAt(c, m.buffer) + ", " + textAt(c, m.count) +
                        " elements) does not hold at the patch point: " + why,
           out;
  // The root moved no block of its own: one message less than the group.
  long long group = (long long)c.match.ranks.size();
  if (c.match.instances <= 0 || c.match.messages != c.match.instances * (group - 1))
    return out.whyNot = "the trace shows " + std::to_string(c.match.messages) + " messages in " +
                        std::to_string(c.match.instances) + " instances, not one per member but the root: "
                        "the root may move its own block by a message to itself, which MPI_IN_PLACE would not "
                        "do; replace it by hand",
           out;
  out.notes.push_back(std::string(scatter ? "sendcounts" : "recvcounts") + ": " + arrays.counts + ", displs: " +
                      arrays.displs + " (the arrays every " + (scatter ? "send" : "receive") + " of the root takes "
                      "its count and displacement from, at the peer's index, unchanged across the region)");
  out.notes.push_back("the root's own block: MPI_IN_PLACE at the root, so it stays where it is in " + arrays.buffer +
                      ", as in the original, whose root " + (scatter ? "sent" : "received") +
                      " only the other ranks' blocks");
  CountProof proof;
  if (squeeze(type) != squeeze(memberType))
    proof.unshown = "the root's messages are in " + type + " and the other ranks' in " + memberType +
                    ": counts of different datatypes do not compare";
  else
    proof = proveCounts(c, comm, referencedVar(arrays.last[1]), referencedVar(arrays.last[2]), m.count, scatter);
  if (!proof.contradiction.empty()) return out.whyNot = proof.contradiction, out;
  if (!proof.unshown.empty())
    out.review.push_back(unshownCounts(call, proof.unshown));
  else
    out.notes.push_back(arrays.counts + "[q] at the root equals " + c.src.of(m.count) + " at rank q, evaluated "
                        "from the source's fills for every rank and root at P = " + ringSizesText() +
                        " and the traced size, where it is the trace's count, and the root's blocks do not overlap");
  std::string own = "(" + rank + " == " + root + " ? MPI_IN_PLACE : " + c.src.of(m.buffer) + ")";
  out.call = scatter ? call + "(" + arrays.buffer + ", " + arrays.counts + ", " + arrays.displs + ", " + type +
                           ", " + own + ", " + c.src.of(m.count) + ", " + memberType + ", " + root + ", " + comm + ")"
                     : call + "(" + own + ", " + c.src.of(m.count) + ", " + memberType + ", " + arrays.buffer + ", " +
                           arrays.counts + ", " + arrays.displs + ", " + type + ", " + root + ", " + comm + ")";
  return out;
}

} // namespace cz::rewrite
