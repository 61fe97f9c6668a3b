// replay_process.h: one analysis process's share of the distributed
// provenance replay, without MPI (distributed_provenance.cpp moves its
// replay records between processes; the unit tests move them in memory).
//
// A process owns the trace ranks r with r % procs == me and holds their
// buffer maps only. It replays each owned rank's steps (its matched sends
// and receive completions) in the rank's ReplayKey order. A send is
// decomposed from the sender's map; its segments go, as a replay record,
// to the process owning the receiver (the original message's edge), which
// enters them into the receiver's map when the receiver reaches the
// receive. A rank waits at a receive whose record has not come yet.
//
// Replay record: uint32 slot (the message's index in the receiving
// process's `received`), uint32 count, then count Segments (their memory
// images: one build, one machine). Empty messages send none (their
// receives change no map).
#pragma once

#include <cstdint>
#include <vector>

#include "collectivize/buffer_maps.h"
#include "collectivize/messages.h"
#include "collectivize/provenance.h"

namespace cz::detect::parallel {

using cz::detect::detail::BufferMaps;
using cz::detect::detail::ReplayKey;

struct ReplayInput {
  int procs = 1, me = 0;
  std::vector<uint32_t> ranks;     // the world ranks this process owns, ascending
  std::vector<Message> sent;       // their matched sends in (src, sendPos) order
  std::vector<uint32_t> sentIndex; // each one's index in the message table
  std::vector<uint32_t> sentSlot;  // each one's slot at the receiver's owner
  std::vector<Message> received;   // matched messages into owned ranks, by slot
};

// What process 0 needs of a process's replay: per sent message, in the
// input's order, whether it verified and its segments; the origins this
// process made (global id me + k * procs for the k-th).
struct ReplayPart {
  std::vector<uint32_t> sentIndex;
  std::vector<uint8_t> verified;
  std::vector<uint32_t> segmentCounts;
  std::vector<cz::detect::detail::Segment> segments;
  std::vector<cz::detect::detail::Origin> origins;
};

class ReplayProcess {
public:
  // in: kept by the caller while the replay runs.
  explicit ReplayProcess(const ReplayInput &in);
  // Replays up to `budget` steps, as long as some owned rank can go on;
  // returns the steps replayed.
  size_t run(size_t budget);
  bool finished() const { return done_ == in_.ranks.size(); }
  bool canRun() const { return !ready_.empty(); }
  // The records for process q made since the last call (moved out).
  std::vector<char> takeRecords(int q);
  bool hasRecords(int q) const { return !outbox_[size_t(q)].empty(); }
  // Records from another process; false when they are not well formed.
  bool deliver(const char *bytes, size_t size);
  ReplayPart result();

  uint64_t recordsSent = 0, recordsReceived = 0;

private:
  void arrived(uint32_t slot, BufferMaps::Span segments);
  void sendStep(uint32_t local, uint32_t idx);

  struct Step {
    ReplayKey key;
    bool send;
    uint32_t idx; // into sent or received
  };
  const ReplayInput &in_;
  cz::detect::detail::BufferMaps maps_;
  std::vector<Step> steps_;          // rank after rank, each in ReplayKey order
  std::vector<size_t> cursor_, end_; // per owned rank
  std::vector<uint32_t> ready_;      // owned ranks (local numbers) that can go on
  size_t done_ = 0;
  std::vector<BufferMaps::Span> sentSpan_;
  std::vector<uint8_t> verified_;
  std::vector<BufferMaps::Span> arrival_; // per slot
  std::vector<uint8_t> hasArrived_;
  std::vector<uint32_t> waiter_;          // per slot: the local rank waiting, or kNone
  std::vector<std::vector<char>> outbox_; // per process
};

// Process 0: the provenance of the whole table from every process's part
// (parts[p] from process p), origins numbered as the serial replay does.
// False (with why) when the parts do not fit the table.
bool assembleProvenance(const MessageTable &t, std::vector<ReplayPart> parts,
                        cz::detect::detail::Provenance &out, std::string &why);

} // namespace cz::detect::parallel
