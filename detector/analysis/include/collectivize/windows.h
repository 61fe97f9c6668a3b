// windows.h: traces too long to analyse at once, in time windows.
//
// A window is a stretch of the trace's time line between two cuts; a cut
// lies where no message is in flight (every message is sent and received
// on one side of it), so every message belongs to one window, and the
// analyses run on each window apart (detect.h: findInWindow), one after
// the other in the serial mode and on several processes in the parallel
// mode, with the same cuts. The time line is a profile of B buckets: per
// bucket the sends in it, and whether a message is in flight there (the
// fields add up over processes, which is how the parallel mode builds the
// same profile as the serial one). Cuts go into buckets no message
// touches; of the quiet stretches that close a window of half to all of
// the wanted size, the longest (the idle time between two phases of the
// program, where a collective is least likely to be under way). A
// collective whose data is held across a cut (a rank receives, computes
// for a while with nothing in flight, and forwards) is seen as two pieces;
// the report says how many windows there were.
#pragma once

#include <cstdint>
#include <vector>

#include "collectivize/messages.h"
#include "collectivize/provenance.h"

namespace cz::detect {

struct TimeProfile {
  uint64_t first = 0, last = 0;   // the earliest send, the latest receive
  size_t buckets = 1;
  std::vector<int64_t> inFlight;  // +1 at a message's first bucket, -1 past its last
  std::vector<uint64_t> sends;    // per bucket: sends in it
  size_t bucketOf(uint64_t time) const;
  void add(const Message &m);     // (its times within [first, last])
};

// An empty profile over [first, last] for a trace of `messages` matched
// messages: the bucket count depends on nothing else.
TimeProfile emptyProfile(uint64_t first, uint64_t last, uint64_t messages);

struct WindowPlan {
  TimeProfile geometry;            // first, last and bucket count (no arrays)
  std::vector<uint32_t> cuts;      // buckets, ascending; windows = cuts + 1
  size_t windows() const { return cuts.empty() ? 1 : cuts.size() + 1; }
  size_t windowOf(uint64_t time) const;
};

// Cuts for windows of about `windowMessages` messages (0: no cuts).
WindowPlan planWindows(TimeProfile profile, uint64_t windowMessages);
// The plan of a whole table: no cuts when it holds at most windowMessages.
WindowPlan planWindows(const MessageTable &t, uint64_t windowMessages);

// One window of a table: its messages (in table order), kept buffers and
// block CRCs, every group, and the provenance restricted to its messages
// (origins renumbered in their order; an origin first carried before the
// window has firstMessage kNone).
struct WindowTable {
  MessageTable table;
  detail::Provenance provenance;
};
WindowTable windowOf(const MessageTable &t, const detail::Provenance &pv, const WindowPlan &plan,
                     size_t window);

// What a window is made of, however its builder came by it (windowOf from
// the whole table; the parallel mode from messages routed to the window's
// owner): its messages in table order, each with its index in the whole
// table, its replay segments (origin ids of the whole trace) and verdict,
// and its block CRCs; its kept buffers.
struct WindowParts {
  std::vector<Message> messages;
  std::vector<uint64_t> tableIndex; // ascending
  std::vector<uint32_t> segmentCounts;
  std::vector<detail::Segment> segments;
  std::vector<uint8_t> verified;
  std::vector<uint32_t> blockCounts; // (empty: no block CRCs)
  std::vector<uint32_t> crcs;
  std::vector<KeptBuffer> kept;
};
// origins: (id, origin) of every origin the segments name, in the serial
// replay's order (the window numbers them so). base gives ranks and groups.
WindowTable assembleWindow(const MessageTable &base, WindowParts parts,
                           const std::vector<std::pair<uint32_t, detail::Origin>> &origins,
                           uint64_t blockBytes);

} // namespace cz::detect
