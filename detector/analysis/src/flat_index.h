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

// The same for keys the caller already stores (values index them): a
// slot is the key's hash (upper half) and the value, 8 bytes, so a big
// index stays in cache; the caller says whether value v has the key.
class HashedIndex {
public:
  explicit HashedIndex(size_t expected = 0) {
    size_t want = 16;
    while (want < expected * 2) want *= 2;
    rehash(want);
  }
  void prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[size_t(hash) & mask_]); }
  // The value whose key hashes to `hash` and satisfies same(value); else
  // inserts `value` (second: inserted).
  template <class Same>
  std::pair<uint32_t, bool> insert(uint64_t hash, uint32_t value, Same same) {
    auto [slot, fresh] = probe(hash, value, same);
    return {slot->value, fresh};
  }
  // insert, but a key already present now maps to `value`.
  template <class Same>
  void assign(uint64_t hash, uint32_t value, Same same) {
    probe(hash, value, same).first->value = value;
  }

private:
  static constexpr uint32_t kEmpty = 0xffffffffu;
  struct Slot {
    uint32_t tag = 0, value = kEmpty;
  };
  // The slot of the key (second: false), or an empty one filled with
  // `value` (second: true).
  template <class Same>
  std::pair<Slot *, bool> probe(uint64_t hash, uint32_t value, Same same) {
    if ((used_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    uint32_t tag = uint32_t(hash >> 32);
    for (size_t s = size_t(hash) & mask_;; s = (s + 1) & mask_) {
      Slot &sl = slots_[s];
      if (sl.value == kEmpty) {
        sl = {tag, value}, used_++;
        low_[s] = uint32_t(hash);
        return {&sl, true};
      }
      if (sl.tag == tag && same(sl.value)) return {&sl, false};
    }
  }
  // Slots keep only half of each hash: a grown index places entries by
  // the hashes' lower halves, so those are kept apart.
  void rehash(size_t n) {
    std::vector<Slot> old = std::move(slots_);
    std::vector<uint32_t> low = std::move(low_);
    slots_.assign(n, Slot{});
    low_.assign(n, 0);
    mask_ = n - 1;
    used_ = 0;
    for (size_t k = 0; k < old.size(); k++)
      if (old[k].value != kEmpty) place(uint64_t(old[k].tag) << 32 | low[k], old[k].value);
  }
  void place(uint64_t hash, uint32_t value) {
    for (size_t s = size_t(hash) & mask_;; s = (s + 1) & mask_)
      if (slots_[s].value == kEmpty) {
        slots_[s] = {uint32_t(hash >> 32), value};
        low_[s] = uint32_t(hash);
        used_++;
        return;
      }
  }
  std::vector<Slot> slots_;
  std::vector<uint32_t> low_;
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

// A (sender, receiver) pair under one key (a round key's number, a
// communicator): the analyses' most common index key.
struct PairKey {
  uint32_t key = 0, src = 0, dst = 0;
  bool operator==(const PairKey &o) const { return key == o.key && src == o.src && dst == o.dst; }
};
struct PairHash {
  size_t operator()(const PairKey &k) const {
    return size_t(mixBits((uint64_t(k.src) << 32 | k.dst) ^ uint64_t(k.key) * 0x9E3779B97F4A7C15ull));
  }
};

} // namespace cz::detect::detail
