// receive_layout.cpp: the order of an allgather's blocks at each receiver
// (receive_layout.h).
#include "receive_layout.h"

#include <algorithm>

#include "detect_internal.h"

namespace cz::detect::detail {

ReceiveLayout receiveLayout(const Group &g, std::vector<ReceivedBlock> blocks, uint64_t n) {
  const size_t p = g.members.size();
  if (n == 0 || p < 2) return ReceiveLayout::NotObserved;
  // The blocks per receiver (a counting sort by its rank: receivers are
  // read one at a time, in any order), each receiver's by address then
  // owner (a few blocks: by insertion), without repeats.
  std::vector<size_t> start(p + 1, 0);
  for (const ReceivedBlock &b : blocks) {
    const int q = rankIn(g, b.receiver);
    if (q < 0) return ReceiveLayout::NotObserved;
    start[size_t(q) + 1]++;
  }
  for (size_t q = 0; q < p; q++) start[q + 1] += start[q];
  std::vector<ReceivedBlock> byReceiver(blocks.size());
  {
    std::vector<size_t> next(start.begin(), start.end() - 1);
    for (const ReceivedBlock &b : blocks) byReceiver[next[size_t(rankIn(g, b.receiver))]++] = b;
  }
  auto before = [](const ReceivedBlock &a, const ReceivedBlock &b) {
    return a.address != b.address ? a.address < b.address : a.owner < b.owner;
  };
  bool rankOrder = true, rotated = true;
  size_t receivers = 0;
  std::vector<uint8_t> seen(p, 0);
  for (size_t qPos = 0; qPos < p; qPos++) {
    ReceivedBlock *first = byReceiver.data() + start[qPos], *last = byReceiver.data() + start[qPos + 1];
    if (first == last) continue;
    if (last - first > 32) std::sort(first, last, before);
    else
      for (ReceivedBlock *k = first + 1; k < last; k++)
        for (ReceivedBlock *j = k; j > first && before(*j, *(j - 1)); j--) std::swap(*j, *(j - 1));
    last = std::unique(first, last, [](const ReceivedBlock &a, const ReceivedBlock &b) {
      return a.owner == b.owner && a.address == b.address;
    });
    std::fill(seen.begin(), seen.end(), 0);
    size_t count = 0;
    uint64_t rankBase = 0, rotatedBase = 0;
    for (const ReceivedBlock *k = first; k < last; k++, count++) {
      const ReceivedBlock &b = *k;
      const int pos = rankIn(g, b.owner);
      // Each other member's block once, none overlapping the one before
      // (sorted by address): every block is kept in a place of its own.
      if (pos < 0 || size_t(pos) == qPos || seen[size_t(pos)]) return ReceiveLayout::NotObserved;
      seen[size_t(pos)] = 1;
      if (k > first && (k - 1)->address + n > b.address) return ReceiveLayout::NotObserved;
      const uint64_t rankShift = uint64_t(pos) * n;
      const uint64_t distShift = uint64_t((size_t(pos) + p - qPos) % p) * n;
      if (k == first) rankBase = b.address - rankShift, rotatedBase = b.address - distShift;
      rankOrder = rankOrder && b.address >= rankShift && b.address - rankShift == rankBase;
      rotated = rotated && b.address >= distShift && b.address - distShift == rotatedBase;
    }
    if (count + 1 != p) return ReceiveLayout::NotObserved;
    receivers++;
  }
  if (receivers != p) return ReceiveLayout::NotObserved;
  // With one block per receiver (two members) both hold: rank order wins,
  // as MPI would have it.
  if (rankOrder) return ReceiveLayout::RankOrder;
  if (rotated) return ReceiveLayout::Rotated;
  return ReceiveLayout::Permuted;
}

std::string layoutName(ReceiveLayout l) {
  switch (l) {
  case ReceiveLayout::Rotated: return "rotated";
  case ReceiveLayout::Permuted: return "permuted";
  default: return "";
  }
}

std::string layoutNote(ReceiveLayout l) {
  switch (l) {
  case ReceiveLayout::Rotated:
    return "received in distance order, not rank order: rank q keeps rank (q + d) mod P's "
           "block d blocks from the start, its own first (as Bruck's allgather leaves them); "
           "MPI_Allgather would leave rank p's block p blocks from the start";
  case ReceiveLayout::Permuted:
    return "each block received at a place of its own, but in neither rank nor distance "
           "order; MPI_Allgather would leave rank p's block p blocks from the start";
  default: return "";
  }
}

} // namespace cz::detect::detail
