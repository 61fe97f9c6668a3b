// detect_internal.h: what the analyses hand to the aggregation.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectivize/detect.h"

namespace cz::detect::detail {

// One occurrence of a collective: the messages that implement it.
struct Instance {
  Kind kind = Kind::Bcast;
  uint32_t comm = 0;
  std::vector<uint32_t> participants; // world ranks, sorted
  uint32_t rootWorld = kNone;
  std::vector<uint32_t> otherRoots;
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
  std::string note;                   // what the analysis wants the report to say
  uint64_t traceBlockBytes = 0;       // partial: block CRCs of this size would settle it
  bool blockBytesAsType = false;      // count is in bytes (MPI_BYTE): derived send types
  std::string recvLayout;             // allgather: blocks not in rank order (receive_layout.h)
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

// Messages numbered per pair: the k-th message from p to q among those
// with one key (communicator; and tag, size, datatype as the analysis
// wants) belongs to round k of that key. One collective uses a pair at
// most once per round, so a round holds one occurrence of it.
struct RoundKey {
  uint32_t comm = 0, tag = 0;
  uint64_t bytes = 0;
  uint32_t type = 0;
};
struct Round {
  RoundKey key;
  uint32_t k = 0;
  std::vector<uint32_t> messages; // in table order
};
using RoundKeyOf = std::function<RoundKey(const Message &)>;
std::vector<Round> pairRounds(const MessageTable &t, const std::vector<uint32_t> &msgs,
                              const RoundKeyOf &keyOf);

// Position of world rank w in g (its rank in the communicator), or -1.
int rankIn(const Group &g, uint32_t w);

// Tiled sends/receives (scatter, gather, alltoall, direct allgather); marks
// the messages it explains in `claimed`.
void findTilings(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                 std::vector<Instance> &out);

// Barriers: empty or constant messages through which every member hears
// from every member.
void findBarriers(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                  std::vector<Instance> &out);

// Alltoall of any shape from per-block CRCs (block_flows.cpp): each
// member's distinct blocks followed to their destinations through packed
// messages. Only when the trace has them (MessageTable::blocks).
void findBlockAlltoalls(const MessageTable &t, const DetectOptions &o,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Bruck-shaped exchanges that the message CRCs cannot prove
// (bruck_shape.cpp): partial alltoalls, with the block size to trace
// with to confirm them.
void findBruckShapes(const MessageTable &t, const DetectOptions &o,
                     std::vector<uint8_t> &claimed, std::vector<Instance> &out);

// Reduce and allreduce: shape (who hears from whom) and small values.
void findReductions(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                    std::vector<Instance> &out);

// Allgather and gather of any shape, from the provenance of every byte.
void findGatherings(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                    std::vector<Instance> &out);

// Items that spread from one root (bcast of any shape).
void findSpreads(const MessageTable &t, const DetectOptions &o,
                 const std::vector<uint8_t> &claimed, std::vector<Instance> &out);

} // namespace cz::detect::detail
