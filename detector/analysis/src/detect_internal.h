// detect_internal.h: what the analyses hand to the aggregation.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectivize/detect.h"
#include "collectivize/provenance.h"

namespace cz::detect::detail {

class RankActivity; // rank_activity.h

// One occurrence of a collective: the messages that implement it.
struct Instance {
  Kind kind = Kind::Bcast;
  uint32_t comm = 0;
  std::vector<uint32_t> participants; // world ranks, sorted
  uint32_t rootWorld = kNone;
  std::vector<uint32_t> otherRoots;
  std::vector<Arrival> arrivals;      // spreads: where each member got the item, by rank
  uint32_t itemCrc = 0;               // spreads: the item's CRC
  std::vector<uint32_t> messages;     // indices into MessageTable::messages
  uint64_t bytes = 0;                 // the collective's buffer at one member
  bool keptConfirmed = false;         // the root's own block was declared kept
  bool oneTag = true;                 // all messages carry the same tag
  uint64_t rootAddress = 0;           // spreads: the root's send buffer
  uint32_t rootFirstSend = 0;         // spreads: sendPos of the root's first send
  uint64_t count = 0;                 // elements of the root's buffer (0: from a message)
  int segments = 1;
  uint64_t repeats = 1;               // occurrences this object stands for
  std::string op;                     // reductions: the MPI_Op the values pin down
  bool shapeOnly = false;             // no evidence beyond the shape: partial
  uint32_t unproven = 0;              // Unproven bits (detect.h): ambiguous
  bool supportOnly = false;           // Match::supportOnly
  bool fedRoot = false;               // Match::fedRoot
  bool direct = false;                // Match::direct
  std::vector<Match::MemberCount> counts; // Match::counts
  std::string note;                   // what the analysis wants the report to say
  uint64_t traceBlockBytes = 0;       // partial: block CRCs of this size would settle it
  bool blockBytesAsType = false;      // count is in bytes (MPI_BYTE): derived send types
  std::string recvLayout;             // allgather, alltoall: blocks not in rank order (receive_layout.h)
  std::string sendLayout;             // alltoall: the senders' blocks not in rank order
  std::vector<Kind> otherKinds;       // Match::otherKinds: what the same messages may also be
};

// A message's send, or its receive completion, for replaying messages in
// time order (one clock on one node; a send before the receive of the same
// message).
struct Step {
  uint64_t time;
  uint32_t msg;
  bool isSend;
};
std::vector<Step> timeOrder(const MessageTable &t, const std::vector<uint32_t> &msgs);
// The same into `steps` (its memory reused across calls).
void timeOrder(const MessageTable &t, const std::vector<uint32_t> &msgs, std::vector<Step> &steps);

// Messages numbered per pair: the k-th message from p to q among those
// with one key (communicator; and tag, size, datatype as the analysis
// wants) belongs to round k of that key. One collective uses a pair at
// most once per round, so a round holds one occurrence of it.
struct RoundKey {
  uint32_t comm = 0, tag = 0;
  uint64_t bytes = 0;
  uint32_t type = 0;
  bool operator==(const RoundKey &o) const {
    return comm == o.comm && tag == o.tag && bytes == o.bytes && type == o.type;
  }
};
struct Round {
  RoundKey key;
  uint32_t k = 0;
  std::vector<uint32_t> messages; // in table order
};
using RoundKeyOf = std::function<RoundKey(const Message &)>;
// Messages the value-reading rules may start from: hashed, not empty, not
// to the sender itself, on a communicator of at least --min-group members
// (table order). Made once per window (RuleInputs::usable) and handed to
// the rules as `usable`: eight rules each scanning every 128-byte message
// again were 3.5 % of the detector's time on the bench trace.
std::vector<uint32_t> usableMessages(const MessageTable &t, const DetectOptions &o);
// Those of `usable` not claimed yet: where each rule starts.
std::vector<uint32_t> hashedCandidates(const std::vector<uint32_t> &usable,
                                       const std::vector<uint8_t> &claimed);

std::vector<Round> pairRounds(const MessageTable &t, const std::vector<uint32_t> &msgs,
                              const RoundKeyOf &keyOf);
// The messages of `msgs` (ascending; kept in order) whose key (keyOf)
// holds messages of more than one size: for analyses that need sizes to
// vary within a round, the only keys worth numbering into rounds.
std::vector<uint32_t> withSeveralSizes(const MessageTable &t, const std::vector<uint32_t> &msgs,
                                       const RoundKeyOf &keyOf);
// The messages of `msgs` (ascending; kept in order) whose key holds a
// member that sends to, or receives from, p - 1 distinct members (p its
// communicator's size; at least one): a round of the key holds one message
// per pair, so only such keys can have a round in which one member sends
// a block to, or receives one from, every other member.
std::vector<uint32_t> withWideMembers(const MessageTable &t, const std::vector<uint32_t> &msgs,
                                      const RoundKeyOf &keyOf);
// Fetches the messages of the round after `current` (a round's messages
// lie all over the table) while `current` is analysed.
inline void prefetchNextRound(const MessageTable &t, const std::vector<Round> &rounds,
                              const Round &current) {
  size_t next = size_t(&current - rounds.data()) + 2;
  if (next < rounds.size())
    for (uint32_t i : rounds[next].messages) __builtin_prefetch(&t.messages[i]);
}

// The analyses run twice: rounds keyed with the tag, then without it (for
// codes that tag by step or source), over the messages still unclaimed.
// The second pass needs only the messages of keys (without the tag) whose
// messages carry several tags or of which the first pass claimed some:
// for any other key it would number the same messages into the same
// rounds and find again the nothing it found. firstPass: the first pass's
// candidates (ascending); returns the second pass's (ascending).
std::vector<uint32_t> secondPass(const MessageTable &t, const std::vector<uint32_t> &firstPass,
                                 const std::vector<uint8_t> &claimed,
                                 const RoundKeyOf &keyWithoutTag);

// Position of world rank w in g (its rank in the communicator), or -1.
inline int rankIn(const Group &g, uint32_t w) {
  if (!g.rankOfWorld.empty()) return w < g.rankOfWorld.size() ? g.rankOfWorld[w] : -1;
  for (size_t i = 0; i < g.members.size(); i++)
    if (g.members[i] == w) return int(i);
  return -1;
}

// Gathers and scatters: the root's slot outside the blocks seen (root
// first or last in the group) and not declared kept makes the root's block
// unproven (tiling.cpp has why).
void markRootBlock(Instance &in, Kind kind, int rootPos, size_t groupSize);

// Tiled sends/receives (scatter, gather, alltoall, direct allgather); marks
// the messages it explains in `claimed`. (activity: the senders' receipts,
// for the several-messages-per-pair test of direct exchanges.)
void findTilings(const MessageTable &t, const DetectOptions &o, const RankActivity &activity,
                 std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Gatherv and scatterv: one block of varying size per member, tiling one
// buffer of the root in rank order (varying_tiling.cpp).
void findVaryingTilings(const MessageTable &t, const DetectOptions &o,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Scatters sent through one temporary buffer and gathers received into
// one scratch buffer, at the sites DetectOptions::stagedSites names
// (staged_copies.cpp): always ambiguous (kStagedCopy).
void findStagedCopies(const MessageTable &t, const DetectOptions &o,
                      const std::vector<uint32_t> &usable, std::vector<uint8_t> &claimed,
                      std::vector<Instance> &out);
// A gather of counts then a gatherv of lists into one place at the root
// (counted_gather.cpp): every member sends one integer, then that many
// records; always ambiguous (kScratchReceive).
void findCountedGathers(const MessageTable &t, const std::vector<uint32_t> &usable,
                        const RankActivity &activity, std::vector<uint8_t> &claimed,
                        std::vector<Instance> &out);

// Barriers: empty or constant messages through which every member hears
// from every member.
void findBarriers(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                  std::vector<Instance> &out);
// Barriers of pairs that exchange a message and its echo, the reply sent
// back unchanged from where the first arrived (echo_barrier.cpp);
// ambiguous (kValuesRead): the forward messages carry data.
void findEchoBarriers(const MessageTable &t, const std::vector<uint32_t> &usable,
                      std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Alltoall of any shape from per-block CRCs (block_flows.cpp): each
// member's distinct blocks followed to their destinations through packed
// messages. Only when the trace has them (MessageTable::blocks).
void findBlockAlltoalls(const MessageTable &t, const DetectOptions &o,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Bruck-shaped exchanges that the message CRCs cannot prove
// (bruck_shape.cpp): partial alltoalls, with the block size to trace
// with to confirm them.
void findBruckShapes(const MessageTable &t, const std::vector<uint32_t> &usable,
                     std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Ring reduce-scatters, and ring allreduces made of a ring
// reduce-scatter and a ring allgather (reduce_scatter.cpp).
void findReduceScatters(const MessageTable &t, const std::vector<uint32_t> &usable,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Recursive-halving reduce-scatters (P a power of two), proven by their
// nested halves and, through the provenance replay pv, by sends that
// carry no received byte (reduce_scatter_halving.cpp).
void findHalvingReduceScatters(const MessageTable &t, const Provenance &pv,
                               const std::vector<uint32_t> &usable, std::vector<uint8_t> &claimed,
                               std::vector<Instance> &out);

// The rounds both value rules (prefix reductions, then reductions) start
// from: the unclaimed usable messages numbered per (communicator, tag,
// size, datatype). The second rule takes the first's when its candidates
// are the same (nothing claimed in between: numbering them again was a
// tenth of the reductions' time).
class ValueRounds {
public:
  // The rounds of `candidates` (ascending).
  const std::vector<Round> &of(const MessageTable &t, const std::vector<uint32_t> &candidates);
  void release() { *this = ValueRounds(); }

private:
  std::vector<uint32_t> candidates_;
  std::vector<Round> rounds_;
  bool made_ = false;
};

// Every member sends each other member a block of its own into one scratch
// place at the receiver (scratch_exchange.cpp): an ambiguous alltoall
// (kScratchReceive), reduce_scatter its other kind.
void findScratchExchanges(const MessageTable &t, const std::vector<uint32_t> &usable,
                          const std::function<const Provenance &()> &provenance,
                          std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Reduce and allreduce: shape (who hears from whom) and small values.
// activity: one index of the table for the passes that ask what a rank did
// between two of its events (built on first use). provenance: the replay,
// asked only when a chain's values pin no operation (did a member forward
// what it received?).
void findReductions(const MessageTable &t, const std::vector<uint32_t> &usable,
                    const RankActivity &activity, ValueRounds &rounds,
                    const std::function<const Provenance &()> &provenance,
                    std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Linear-pipeline reduces whose root changes from call to call through
// the same code: instances cut by causality, ambiguous (rotating_chain.cpp).
void findRotatingChains(const MessageTable &t, const std::vector<uint32_t> &usable,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Scan and exscan whose messages carry partial results (recursive
// doubling, a chain after a shift), proven by their values
// (prefix_reduction.cpp).
void findPrefixReductions(const MessageTable &t, const DetectOptions &o,
                          const std::vector<uint32_t> &usable, ValueRounds &rounds,
                          std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// A prefix reduction combined at the receivers: each member forwards
// along the chain its own value and every value from below
// (forwarded_prefix.cpp); always ambiguous.
void findForwardedPrefixes(const MessageTable &t, const DetectOptions &o,
                           std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Allgather and gather of any shape, from the provenance of every byte.
// pv: traceProvenance(t).
void findGatherings(const MessageTable &t, const Provenance &pv, const DetectOptions &o,
                    std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Long broadcasts (long_bcast.cpp): a roll of one piece per member whose
// pieces a spread from one root delivered, as runs whose CRCs combine
// theirs: the roll's instances replaced by one bcast from that root.
void findLongBcasts(const MessageTable &t, const RankActivity &activity,
                    std::vector<uint8_t> &claimed, std::vector<Instance> &instances);

// Allgathers whose members each received, just before contributing, a
// message no collective explains: maybe a scatter then an allgather, one
// bcast (scattered_first).
void weighScatteredFirst(const MessageTable &t, const RankActivity &activity,
                         const std::vector<uint8_t> &claimed, std::vector<Instance> &instances);

// Pipelined broadcasts: consecutive spread instances with one group and
// root whose root buffers are adjacent pieces of one buffer, sent and
// received through the same call sites, are one broadcast of the whole
// buffer (pipeline_segments.cpp).
void mergeSegments(const MessageTable &t, std::vector<Instance> &instances);

// Items that spread from one root (bcast of any shape).
void findSpreads(const MessageTable &t, const DetectOptions &o, const RankActivity &activity,
                 const std::vector<uint8_t> &claimed, std::vector<Instance> &out);

} // namespace cz::detect::detail
