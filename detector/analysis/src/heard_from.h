// heard_from.h: the "who has heard from whom" replay that barriers and
// reductions share. Members are positions 0..p-1 in a group; each starts
// having heard from itself. A send carries its sender's set as it was when
// posted; its receive adds that set to the receiver's. Replay the steps of
// timeOrder() (a send before its own receive). The messages are a round's
// (pairRounds: ascending indices), so a message's carried set is found by
// binary search in one flat array: a vector per message cost more than
// the replay.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cz::detect::detail {

class HeardFrom {
public:
  // msgs: the messages replayed, ascending.
  HeardFrom(size_t members, const std::vector<uint32_t> &msgs) { reset(members, msgs); }
  HeardFrom() = default;
  // Starts another replay, keeping the memory (rounds are many and small:
  // three allocations per round cost as much as the replay).
  void reset(size_t members, const std::vector<uint32_t> &msgs) {
    p_ = members, words_ = (members + 63) / 64, msgs_ = &msgs;
    heard_.assign(members * words_, 0);
    carried_.assign(msgs.size() * words_, 0);
    sent_.assign(msgs.size(), 0);
    for (size_t r = 0; r < p_; r++) row(r)[r / 64] |= uint64_t(1) << (r % 64);
  }
  void send(uint32_t msg, size_t from) {
    size_t k = slot(msg);
    std::copy(row(from), row(from) + words_, carried_.begin() + ptrdiff_t(k * words_));
    sent_[k] = 1;
  }
  void receive(uint32_t msg, size_t to) {
    size_t k = slot(msg);
    if (!sent_[k]) return; // (a receive replayed without its send carries nothing)
    const uint64_t *c = carried_.data() + k * words_;
    uint64_t *h = row(to);
    for (size_t w = 0; w < words_; w++) h[w] |= c[w];
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

  // Member r has heard from member q.
  bool heard(size_t r, size_t q) const {
    return (heard_[r * words_ + q / 64] >> (q % 64)) & 1;
  }

private:
  uint64_t *row(size_t r) { return heard_.data() + r * words_; }
  size_t slot(uint32_t msg) const {
    return size_t(std::lower_bound(msgs_->begin(), msgs_->end(), msg) - msgs_->begin());
  }
  size_t p_ = 0, words_ = 0;
  std::vector<uint64_t> heard_; // p rows of `words_` bits
  const std::vector<uint32_t> *msgs_ = nullptr;
  std::vector<uint64_t> carried_; // per message: the sender's set when it sent
  std::vector<uint8_t> sent_;
};

} // namespace cz::detect::detail
