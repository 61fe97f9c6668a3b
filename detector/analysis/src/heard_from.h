// heard_from.h: the "who has heard from whom" replay that barriers and
// reductions share. Members are positions 0..p-1 in a group; each starts
// having heard from itself. A send carries its sender's set as it was when
// posted; its receive adds that set to the receiver's. Replay the steps of
// timeOrder() (a send before its own receive).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cz::detect::detail {

class HeardFrom {
public:
  explicit HeardFrom(size_t members)
      : p_(members), words_((members + 63) / 64), heard_(members * words_, 0) {
    for (size_t r = 0; r < p_; r++) row(r)[r / 64] |= uint64_t(1) << (r % 64);
  }
  void send(uint32_t msg, size_t from) {
    carried_[msg].assign(row(from), row(from) + words_);
  }
  void receive(uint32_t msg, size_t to) {
    const std::vector<uint64_t> &c = carried_[msg];
    uint64_t *h = row(to);
    for (size_t w = 0; w < words_ && w < c.size(); w++) h[w] |= c[w];
  }
  // Member r has heard from every member.
  bool heardAll(size_t r) const {
    const uint64_t *h = heard_.data() + r * words_;
    for (size_t w = 0; w < words_; w++) {
      uint64_t full = w + 1 < words_ || p_ % 64 == 0 ? ~uint64_t(0) : (uint64_t(1) << (p_ % 64)) - 1;
      if (h[w] != full) return false;
    }
    return true;
  }

private:
  uint64_t *row(size_t r) { return heard_.data() + r * words_; }
  size_t p_, words_;
  std::vector<uint64_t> heard_; // p rows of `words_` bits
  std::unordered_map<uint32_t, std::vector<uint64_t>> carried_; // message -> sender's set
};

} // namespace cz::detect::detail
