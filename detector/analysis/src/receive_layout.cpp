// receive_layout.cpp: the order of an allgather's blocks at each receiver
// (receive_layout.h).
#include "receive_layout.h"

#include <algorithm>
#include <tuple>

#include "detect_internal.h"

namespace cz::detect::detail {

ReceiveLayout receiveLayout(const Group &g, std::vector<ReceivedBlock> blocks, uint64_t n) {
  const size_t p = g.members.size();
  if (n == 0 || p < 2) return ReceiveLayout::NotObserved;
  std::sort(blocks.begin(), blocks.end(), [](const ReceivedBlock &a, const ReceivedBlock &b) {
    return std::tie(a.receiver, a.address, a.owner) < std::tie(b.receiver, b.address, b.owner);
  });
  blocks.erase(std::unique(blocks.begin(), blocks.end(),
                           [](const ReceivedBlock &a, const ReceivedBlock &b) {
                             return a.receiver == b.receiver && a.owner == b.owner &&
                                    a.address == b.address;
                           }),
               blocks.end());
  bool rankOrder = true, rotated = true;
  size_t receivers = 0;
  for (size_t k = 0; k < blocks.size();) {
    const uint32_t q = blocks[k].receiver;
    const int qPos = rankIn(g, q);
    if (qPos < 0) return ReceiveLayout::NotObserved;
    std::vector<uint8_t> seen(p, 0);
    size_t count = 0;
    uint64_t rankBase = 0, rotatedBase = 0;
    for (size_t first = k; k < blocks.size() && blocks[k].receiver == q; k++, count++) {
      const ReceivedBlock &b = blocks[k];
      const int pos = rankIn(g, b.owner);
      // Each other member's block once, none overlapping the one before
      // (sorted by address): every block is kept in a place of its own.
      if (pos < 0 || pos == qPos || seen[size_t(pos)]) return ReceiveLayout::NotObserved;
      seen[size_t(pos)] = 1;
      if (k > first && blocks[k - 1].address + n > b.address) return ReceiveLayout::NotObserved;
      const uint64_t rankShift = uint64_t(pos) * n;
      const uint64_t distShift = uint64_t((size_t(pos) + p - size_t(qPos)) % p) * n;
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
