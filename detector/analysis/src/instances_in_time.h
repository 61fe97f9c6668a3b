// instances_in_time.h: instances indexed by their time span.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cz::detect::detail {

// A communicator's instances by time, to find those that overlap a span
// without looking at every one of them for each roll (a trace of
// thousands of broadcasts made that quadratic).
class InstancesInTime {
public:
  void add(std::pair<uint64_t, uint64_t> span, size_t k) {
    spans_.push_back({span.first, span.second, k});
    longest_ = std::max(longest_, span.second >= span.first ? span.second - span.first : 0);
  }
  void sort() {
    std::sort(spans_.begin(), spans_.end(),
              [](const Entry &a, const Entry &b) { return a.start < b.start; });
  }
  // The instances whose span meets [from, to], in start order.
  std::vector<size_t> overlapping(uint64_t from, uint64_t to) const {
    uint64_t earliest = from > longest_ ? from - longest_ : 0;
    auto it = std::lower_bound(spans_.begin(), spans_.end(), earliest,
                               [](const Entry &e, uint64_t t) { return e.start < t; });
    std::vector<size_t> out;
    for (; it != spans_.end() && it->start <= to; ++it)
      if (it->end >= from) out.push_back(it->k);
    return out;
  }

private:
  struct Entry {
    uint64_t start, end;
    size_t k;
  };
  std::vector<Entry> spans_;
  uint64_t longest_ = 0;
};

} // namespace cz::detect::detail
