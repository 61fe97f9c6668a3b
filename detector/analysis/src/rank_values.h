// rank_values.h: a value per world rank that is emptied in O(1), for the
// analyses that replay many small sets of messages (one item, one
// instance) and need per-rank state for each: a hash map per set cost
// more than the replay. Each entry carries the generation it was written
// in; reset() starts a new generation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::detail {

class RankValues {
public:
  explicit RankValues(size_t ranks = 0) : stamp_(ranks, 0), value_(ranks, 0) {}
  void reset() {
    if (++gen_ == 0) { // wrapped: old stamps could look current
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
  }
  bool has(uint32_t r) const { return stamp_[r] == gen_; }
  // The value of r, or nullptr when r has none in this generation.
  uint32_t *find(uint32_t r) { return has(r) ? &value_[r] : nullptr; }
  uint32_t get(uint32_t r) const { return value_[r]; } // when has(r)
  void set(uint32_t r, uint32_t v) {
    stamp_[r] = gen_;
    value_[r] = v;
  }

private:
  std::vector<uint32_t> stamp_, value_;
  uint32_t gen_ = 1;
};

// Entries RankValues needs for every src and dst of the table's messages
// (ranks of the trace, or more if a record names a larger world rank).
inline size_t rankSpan(const MessageTable &t) {
  size_t n = size_t(std::max(t.ranks, 0));
  for (const Message &m : t.messages) n = std::max<size_t>(n, std::max(m.src, m.dst) + size_t(1));
  return n;
}

} // namespace cz::detect::detail
