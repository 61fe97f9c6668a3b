// radix_sort.h: a stable sort of records by an unsigned integer key, in
// linear time (least significant byte first), through a second array of
// the records (the caller's, kept between sorts). Each rank's causal events (by position) are sorted with it:
// a comparison sort spent ~20 comparisons per element on them.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace cz::detect::detail {

// Sorts `items` by keyOf(item) (a uint64_t), keeping the order of equal
// keys. Bytes in which all keys agree cost no pass; a short vector is
// sorted by comparisons (the same order: both are stable).
// `spare` holds the records between passes: one vector for many sorts
// spares the kernel zeroing fresh pages for each (this VM's costly part).
template <class T, class KeyOf>
void radixSortByKey(std::vector<T> &items, KeyOf keyOf, std::vector<T> &spare) {
  const size_t n = items.size();
  if (n < 64) {
    std::stable_sort(items.begin(), items.end(),
                     [&](const T &a, const T &b) { return keyOf(a) < keyOf(b); });
    return;
  }
  // Which bytes vary, then how many keys have each value of each of them.
  uint64_t first = keyOf(items[0]), differ = 0;
  for (const T &item : items) differ |= keyOf(item) ^ first;
  unsigned varying[8], passes = 0;
  for (unsigned b = 0; b < 8; b++)
    if ((differ >> (8 * b)) & 0xff) varying[passes++] = b;
  std::vector<std::array<uint32_t, 256>> counts(passes);
  for (auto &c : counts) c.fill(0);
  for (const T &item : items) {
    uint64_t k = keyOf(item);
    for (unsigned p = 0; p < passes; p++) counts[p][(k >> (8 * varying[p])) & 0xff]++;
  }
  static_assert(std::is_trivially_copyable_v<T>);
  if (spare.size() < n) spare.resize(n);
  T *from = items.data(), *to = spare.data();
  for (unsigned p = 0; p < passes; p++) {
    const unsigned shift = 8 * varying[p];
    std::array<size_t, 256> start;
    size_t at = 0;
    for (unsigned v = 0; v < 256; v++) start[v] = at, at += counts[p][v];
    for (size_t i = 0; i < n; i++) to[start[(keyOf(from[i]) >> shift) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  if (from != items.data()) std::copy(from, from + n, items.data());
}

} // namespace cz::detect::detail
