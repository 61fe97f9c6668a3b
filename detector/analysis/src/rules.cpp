// rules.cpp: see rules.h. The entries' texts are what --list-rules prints:
// they say what a confirmed instance of each rule means.
#include "rules.h"

#include "rank_activity.h"

namespace cz::detect::detail {

RuleInputs::RuleInputs(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                       std::vector<Instance> &instances, std::function<const Provenance &()> provenance)
    : t(t), o(o), claimed(claimed), instances(instances), provenance_(std::move(provenance)) {}

RuleInputs::~RuleInputs() = default;

const RankActivity &RuleInputs::activity() {
  if (!activity_) activity_ = std::make_unique<RankActivity>(t);
  return *activity_;
}

const std::vector<uint32_t> &RuleInputs::usable() {
  if (!usable_)
    usable_ = std::make_unique<std::vector<uint32_t>>(usableMessages(t, o));
  return *usable_;
}

namespace {

void tiling(RuleInputs &in) { findTilings(in.t, in.o, in.activity(), in.claimed, in.instances); }
void varyingTiling(RuleInputs &in) { findVaryingTilings(in.t, in.o, in.claimed, in.instances); }
void stagedCopies(RuleInputs &in) {
  findStagedCopies(in.t, in.o, in.usable(), in.claimed, in.instances);
}
void countedGathers(RuleInputs &in) {
  findCountedGathers(in.t, in.usable(), in.activity(), in.claimed, in.instances);
}
void reduceScatters(RuleInputs &in) {
  findReduceScatters(in.t, in.usable(), in.claimed, in.instances);
}
void halvingReduceScatters(RuleInputs &in) {
  findHalvingReduceScatters(in.t, in.provenance(), in.usable(), in.claimed, in.instances);
}
void barriers(RuleInputs &in) { findBarriers(in.t, in.o, in.claimed, in.instances); }
void echoBarriers(RuleInputs &in) { findEchoBarriers(in.t, in.usable(), in.claimed, in.instances); }
void blockFlows(RuleInputs &in) { findBlockAlltoalls(in.t, in.o, in.claimed, in.instances); }
void bruckShapes(RuleInputs &in) { findBruckShapes(in.t, in.usable(), in.claimed, in.instances); }
void prefixReductions(RuleInputs &in) {
  findPrefixReductions(in.t, in.o, in.usable(), in.valueRounds, in.claimed, in.instances);
}
void forwardedPrefixes(RuleInputs &in) {
  findForwardedPrefixes(in.t, in.o, in.claimed, in.instances);
}
void reductions(RuleInputs &in) {
  findReductions(in.t, in.usable(), in.activity(), in.valueRounds,
                 [&in]() -> const Provenance & { return in.provenance(); }, in.claimed, in.instances);
  in.valueRounds.release();
}
void scratchExchanges(RuleInputs &in) {
  findScratchExchanges(in.t, in.usable(), [&in]() -> const Provenance & { return in.provenance(); },
                       in.claimed, in.instances);
}
void rotatingChains(RuleInputs &in) {
  findRotatingChains(in.t, in.usable(), in.claimed, in.instances);
}
void spreads(RuleInputs &in) {
  findSpreads(in.t, in.o, in.activity(), in.claimed, in.instances);
  for (const Instance &i : in.instances) // spreads do not mark what they take
    for (uint32_t m : i.messages) in.claimed[m] = 1;
}
void longBcasts(RuleInputs &in) { findLongBcasts(in.t, in.activity(), in.claimed, in.instances); }
void segments(RuleInputs &in) { mergeSegments(in.t, in.instances); }
void gatherings(RuleInputs &in) { findGatherings(in.t, in.provenance(), in.o, in.claimed, in.instances); }
void scatteredFirst(RuleInputs &in) { weighScatteredFirst(in.t, in.activity(), in.claimed, in.instances); }

} // namespace

const std::vector<DetectionRule> &detectionRules() {
  static const std::vector<DetectionRule> rules = {
      {"tiling",
       {Kind::Scatter, Kind::Gather, Kind::Allgather, Kind::Alltoall},
       "every member's block lands at its rank's offset of one buffer (the root's, or every "
       "member's), each block sent once, the root's own block present or declared kept",
       "first: tiled sends and receives are the strongest shape evidence",
       "",
       tiling},
      {"varying-tiling",
       {Kind::Gatherv, Kind::Scatterv, Kind::Alltoallv, Kind::Allgatherv, Kind::Gather, Kind::Scatter},
       "one block of its own length per member, tiling one buffer in rank order (allgatherv: "
       "every member sending the same block to all)",
       "after tiling: blocks of equal length are a gather or scatter",
       "tiling",
       varyingTiling},
      {"staged-copies",
       {Kind::Scatter, Kind::Gather, Kind::Scatterv, Kind::Gatherv},
       "nothing: a root that sends distinct blocks to (receives one from) every member once, "
       "through a buffer the source fills (empties) by a copy at an offset following the peer "
       "(site database \"staging\"), or from (into) a buffer per member the peer chooses "
       "(site database \"peer_indexed\": sendbuf[i], &a[i * n] to rank i), is a possible "
       "scatter (gather); it "
       "stays ambiguous",
       "after tiling, before reductions: a gather into one scratch buffer has a reduction's "
       "shape",
       "",
       stagedCopies},
      {"counted-gather",
       {Kind::Gather},
       "nothing: every member but the root sends it one integer, then a message of k times that "
       "many elements (one k for all), from the same call sites, received into one place; a "
       "gather of counts then a gatherv of lists whose layout the trace never shows stays "
       "ambiguous",
       "after tiling, before reductions: the counts into one scalar have a reduction's shape",
       "",
       countedGathers},
      {"reduce-scatter-ring",
       {Kind::ReduceScatter, Kind::Allreduce},
       "nothing by itself (the values never show the operation: ambiguous): every member sends "
       "P-1 blocks of one buffer of P around one ring, each after the previous block arrived and "
       "combined (other bytes), keeping one block, and hears from every member; followed by P-1 "
       "steps forwarding the finished blocks, the whole is an allreduce",
       "before barriers: a ring of constant payloads is a barrier's shape too, and its tiled "
       "send places say more",
       "",
       reduceScatters},
      {"reduce-scatter-halving",
       {Kind::ReduceScatter, Kind::Allreduce},
       "P = 2^L members exchange in L rounds with rank ^ mask, each sending the half of its "
       "remaining range its partner keeps (nested halves tiling P blocks with one hole, the block "
       "kept) and receiving the other; every later half leaves after the previous one arrived and "
       "the provenance replay finds no received byte in it (combined, not forwarded); the op stays "
       "unknown; followed by L rounds of recursive doubling that bring every finished block back "
       "in place, the whole is an allreduce",
       "before barriers and reductions: its rounds are pairwise exchanges of partial results",
       "",
       halvingReduceScatters},
      {"barrier",
       {Kind::Barrier, Kind::Allreduce},
       "every member hears from every member through empty messages, or values the program "
       "never reads",
       "",
       "barriers",
       barriers},
      {"echo-barrier",
       {Kind::Barrier},
       "nothing by itself (the forward messages carry data a rank may read: ambiguous): every "
       "message is one half of a pair whose reply leaves, unchanged, from where the first "
       "arrived, and every member hears from every member by its last event",
       "before block-flows and reductions: an exchange in which everyone hears from everyone "
       "is a reduction's shape too, and an echo combines nothing",
       "",
       echoBarriers},
      {"block-flows",
       {Kind::Alltoall},
       "each member's distinct blocks (per-block CRCs, --block-bytes) reach their destinations "
       "through packed messages",
       "before reductions: in Bruck's alltoall everyone hears from everyone and the data "
       "changes at every hop",
       "",
       blockFlows},
      {"bruck-shape",
       {Kind::Alltoall},
       "nothing: a Bruck-shaped exchange the message CRCs cannot prove stays partial, with the "
       "block size to trace with",
       "with block-flows",
       "block flows",
       bruckShapes},
      {"prefix-reduction",
       {Kind::Scan, Kind::Exscan},
       "every rank heard from exactly the ranks below it, sent its own value first, and each "
       "later send is the operation of its own value and what it received (scan) or of what it "
       "received (exscan), one kind and operation fitting",
       "before reductions: a prefix reduction's messages are combined values too; before "
       "spreads: forwarded values would look like broadcasts",
       "",
       prefixReductions},
      {"forwarded-prefix",
       {Kind::Scan},
       "nothing: a chain that forwards every value from below unchanged combines at the "
       "receivers, which no message shows; it stays ambiguous",
       "with prefix-reduction",
       "prefix reductions",
       forwardedPrefixes},
      {"reduction",
       {Kind::Reduce, Kind::Allreduce, Kind::Alltoall},
       "who hears from whom is a reduction tree or exchange, and the traced values pin one "
       "operation (a chain whose root sends back to its start through the same call sites is "
       "a shift, and one in which a member passes on only bytes it received, as the provenance "
       "replay finds them, forwards: neither is reported)",
       "before spreads: combined values often become equal (a maximum reached), which looks "
       "like data flowing",
       "reductions",
       reductions},
      {"scratch-exchange",
       {Kind::Alltoall},
       "nothing: every member sent each other member a block of its own data (no byte another "
       "rank contributed, the provenance replay says) and received them all into one place, "
       "used before the next arrived; copied out (an alltoall) or combined (a reduce_scatter), "
       "no message shows which: it stays ambiguous",
       "after block-flows, bruck-shape and reductions: Bruck's exchange at three ranks reaches "
       "every pair once through one scratch buffer, and an exchange of equal values is a "
       "reduction's",
       "",
       scratchExchanges},
      {"spread",
       {Kind::Bcast},
       "one distinctive item reaches every member from one root, each member receiving it "
       "before passing it on",
       "",
       "",
       spreads},
      {"long-bcast",
       {Kind::Bcast},
       "every member's piece of a root's buffer reached it through runs whose CRCs combine the "
       "pieces' (scatter then allgather of one buffer)",
       "before pipelined pieces are joined: a long broadcast's root also sends its pieces from "
       "adjacent addresses",
       "",
       longBcasts},
      {"pipeline-segments",
       {Kind::Bcast},
       "consecutive spreads of one root from adjacent pieces of one buffer are one broadcast "
       "of the whole buffer",
       "after every spread is known",
       "spreads",
       segments},
      {"gathering",
       {Kind::Allgather, Kind::Gather, Kind::Scatter},
       "the provenance of every byte: each member's block reached every member (or the root) "
       "at its rank's offset",
       "after the shape rules: it explains what they left",
       "",
       gatherings},
      {"rotating-chain",
       {Kind::Reduce},
       "nothing: chains of P-1 messages through one send and one receive, each cut where the "
       "next one starts at the last root, every rank combining before it passes the value on "
       "and the root quiet while its chain runs, the root changing from call to call; a value "
       "passed around a ring looks the same, so it stays ambiguous",
       "after every rule that explains messages: one root's chains are the reduction rule's "
       "(pair rounds keep its calls apart), and a ring of broadcasts handing the next root its "
       "data (a long broadcast's helper) has the same chains",
       "",
       rotatingChains},
      {"scattered-first",
       {Kind::Allgather, Kind::Bcast},
       "nothing by itself: an allgather whose members each received an unexplained message "
       "just before contributing is weighed as a scatter then an allgather, one bcast",
       "last: it weighs the allgathers found",
       "provenance and gathering",
       scatteredFirst},
  };
  return rules;
}

} // namespace cz::detect::detail

namespace cz::detect {

std::vector<RuleDescription> detectionRuleList() {
  std::vector<RuleDescription> out;
  for (const detail::DetectionRule &r : detail::detectionRules())
    out.push_back({r.name, r.finds, r.proves, r.order});
  return out;
}

std::string detectionRuleText() {
  std::string s;
  int n = 0;
  for (const RuleDescription &r : detectionRuleList()) {
    s += std::to_string(++n) + ". " + r.name + " (";
    for (size_t k = 0; k < r.finds.size(); k++) s += std::string(k ? ", " : "") + kindName(r.finds[k]);
    s += ")\n   proves: " + r.proves + "\n";
    if (!r.order.empty()) s += "   runs here: " + r.order + "\n";
  }
  return s;
}

} // namespace cz::detect
