// rank_activity.h: what a rank received and sent between two of its own
// events. The one place for the "request and answer" tests: a process
// that sends after hearing from the process it then sends to answers a
// request (spreads: a task farm's stop signal is not a broadcast;
// reductions: a master answering workers as they report is not a reduce),
// and for the spreads' check that a buffer was overwritten by a receive.
#pragma once

#include <cstdint>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::detail {

// A completed receive: where in its rank's events, and which message.
struct Receipt {
  uint32_t pos, msg;
};

class RankActivity {
public:
  explicit RankActivity(const MessageTable &t) : t_(t) {}

  // A receive of `rank` from `from` on `comm` completed at a position in
  // (after, before).
  bool receivedBetween(uint32_t rank, uint32_t from, uint32_t comm, uint32_t after,
                       uint32_t before) const;
  // A receive of `rank` (from anyone) completed at a position in (after,
  // before).
  bool receivedBetween(uint32_t rank, uint32_t after, uint32_t before) const;
  // `rank` posted a send at a position in (after, before).
  bool sentBetween(uint32_t rank, uint32_t after, uint32_t before) const;

  // Receipts of a rank in position order. The index is built on first use
  // (reductions mostly need none).
  const std::vector<Receipt> &receipts(uint32_t rank) const {
    if (!indexed_) index(); // (inline: the spreads ask hundreds of thousands of times)
    return receipts_[rank];
  }
  // Index in receipts(rank) of the first receipt after position `pos`.
  size_t firstReceiptAfter(uint32_t rank, uint32_t pos) const;
  // Index of message i's receipt in receipts(i's receiver).
  size_t receiptOf(uint32_t message) const {
    if (!indexed_) index();
    return slot_[message];
  }
  // Index in the table (ordered by sender, then send position) of the
  // first send of `rank` at a position >= `pos`: the table's size, or a
  // message of another sender, if there is none.
  uint32_t firstSendAt(uint32_t rank, uint32_t pos) const;

private:
  // Per rank, where its sorted positions (receipts, or sends in table
  // order) reach each multiple of 2^shift: a search then spans the entries
  // of one bucket, not all of the rank's (the rules ask millions of times,
  // and a binary search over a big rank's entries missed the cache at
  // nearly every step).
  struct Buckets {
    std::vector<uint32_t> first; // per bucket: index of its first entry
    std::vector<size_t> from;    // per rank: where its buckets begin (ranks + 1)
    std::vector<uint8_t> shift;  // per rank
    // Appends a rank's buckets: n entries from index `base`, pos(k) sorted.
    template <class Pos>
    void add(uint32_t base, size_t n, Pos pos);
    // The entries [lo, hi) of rank's bucket holding `pos`; false when pos is
    // past the rank's last bucket (every entry is below it).
    bool range(uint32_t rank, uint32_t pos, uint32_t &lo, uint32_t &hi) const;
  };
  void index() const;
  const MessageTable &t_;
  mutable std::vector<std::vector<Receipt>> receipts_; // per rank
  mutable std::vector<uint32_t> slot_;                 // per message
  // The send positions in table order (a binary search over 4-byte
  // entries, not over the table's records) and where each rank's begin.
  mutable std::vector<uint32_t> sendPos_, sendsFrom_;
  mutable Buckets receiptBuckets_, sendBuckets_;
  mutable bool indexed_ = false;
};

} // namespace cz::detect::detail
