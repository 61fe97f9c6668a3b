// flat_index.h: a key -> uint32_t index in one open-addressing array
// (linear probing), for the lookups done once per message: no node per
// entry, one probe in the common case. Insert-only; values are indices
// (anything but 0xffffffff, which marks an empty slot). Iteration order is
// not offered: callers that need an order keep it themselves.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace cz::detect::detail {

template <class Key, class Hash>
class FlatIndex {
public:
  explicit FlatIndex(size_t expected = 0) { reserve(expected); }

  void reserve(size_t expected) {
    size_t want = 16;
    while (want < expected * 2) want *= 2;
    if (want > slots_.size()) rehash(want);
  }
  size_t size() const { return used_; }

  // The value of `key`, or nullptr.
  const uint32_t *find(const Key &key) const {
    if (used_ == 0) return nullptr;
    for (size_t s = Hash()(key) & mask_;; s = (s + 1) & mask_) {
      const Slot &sl = slots_[s];
      if (sl.value == kEmpty) return nullptr;
      if (sl.key == key) return &sl.value;
    }
  }
  // The value of `key`; inserts `value` when absent (second: inserted).
  std::pair<uint32_t *, bool> insert(const Key &key, uint32_t value) {
    if ((used_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t s = Hash()(key) & mask_;; s = (s + 1) & mask_) {
      Slot &sl = slots_[s];
      if (sl.value == kEmpty) {
        sl.key = key, sl.value = value, used_++;
        return {&sl.value, true};
      }
      if (sl.key == key) return {&sl.value, false};
    }
  }
  // Empties it, keeping the memory (cost: the slots, so reuse it for
  // batches of similar size).
  void clear() {
    if (used_ == 0) return;
    for (Slot &s : slots_) s.value = kEmpty;
    used_ = 0;
  }

private:
  static constexpr uint32_t kEmpty = 0xffffffffu;
  struct Slot {
    Key key{};
    uint32_t value = kEmpty;
  };
  void rehash(size_t n) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    used_ = 0;
    for (const Slot &s : old)
      if (s.value != kEmpty) insert(s.key, s.value);
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, used_ = 0;
};

// A 64-bit mix whose low bits depend on every input bit (murmur3's
// finalizer): linear probing uses the low bits.
inline uint64_t mixBits(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

} // namespace cz::detect::detail
