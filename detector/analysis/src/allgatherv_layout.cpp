// allgatherv_layout.cpp: see allgatherv_layout.h.
#include "allgatherv_layout.h"

#include <algorithm>
#include <map>

namespace cz::detect::detail {
namespace {

const Arrival *arrivalAt(const Match &m, uint32_t rank) {
  for (const Arrival &a : m.arrivals)
    if (a.rank == rank) return &a;
  return nullptr;
}

// Displacements (bytes, from an arbitrary origin) per member position,
// the same at every member for every block it received (its own block is
// left out: it may be sent from a buffer of its own). Empty when the
// arrivals do not fit one such list.
std::vector<uint64_t> sharedDisplacements(const std::vector<const Match *> &byPos,
                                          const std::vector<uint32_t> &ranks) {
  size_t n = ranks.size();
  if (n < 3) return {};
  auto at = [&](size_t holder, size_t block) -> const Arrival * {
    return arrivalAt(*byPos[block], ranks[holder]);
  };
  for (size_t q = 0; q < n; q++)
    for (size_t p = 0; p < n; p++)
      if (p != q && !at(q, p)) return {};
  // Unsigned differences wrap consistently: equal differences are equal
  // displacements whichever way the addresses lie.
  std::vector<uint64_t> d(n);
  d[1] = 0;
  for (size_t p = 2; p < n; p++) d[p] = at(0, p)->address - at(0, 1)->address;
  d[0] = at(1, 0)->address - at(1, 2)->address + d[2];
  for (size_t q = 0; q < n; q++) {
    bool first = true;
    uint64_t base = 0;
    for (size_t p = 0; p < n; p++) {
      if (p == q) continue;
      uint64_t b = at(q, p)->address - d[p];
      if (!first && b != base) return {};
      base = b, first = false;
    }
  }
  uint64_t low = *std::min_element(d.begin(), d.end(), [](uint64_t a, uint64_t b) {
    return int64_t(a) < int64_t(b);
  });
  for (uint64_t &x : d) x -= low;
  return d;
}

} // namespace

bool blockSizesVary(const std::vector<Match *> &ms) {
  for (const Match *m : ms)
    if (m->bytesPerInstance != ms[0]->bytesPerInstance) return true;
  return false;
}

void makeAllgatherv(const std::vector<Match *> &ms, Match &all) {
  all.kind = Kind::Allgatherv;
  const std::vector<uint32_t> &ranks = ms[0]->ranks;
  std::vector<const Match *> byPos(ranks.size(), nullptr);
  all.counts.clear();
  all.bytesPerInstance = 0;
  for (const Match *m : ms) {
    auto it = std::find(ranks.begin(), ranks.end(), m->rootWorld);
    if (it != ranks.end()) byPos[size_t(it - ranks.begin())] = m;
    all.counts.push_back({m->rootWorld, uint32_t(m->count)});
    all.bytesPerInstance += m->bytesPerInstance;
  }
  std::sort(all.counts.begin(), all.counts.end());
  if (byPos[0]) all.count = byPos[0]->count, all.callBytes = byPos[0]->callBytes; // the first member's
  std::vector<uint64_t> d;
  if (std::find(byPos.begin(), byPos.end(), nullptr) == byPos.end()) d = sharedDisplacements(byPos, ranks);
  if (d.empty()) {
    all.recvLayout = "permuted";
    all.note = "every member's block, of a count of its own, reached every other member, but not at "
               "one displacement per member that every rank shares: MPI_Allgatherv would leave the "
               "blocks in other places";
    return;
  }
  bool rankOrder = true;
  for (size_t p = 1; p < d.size(); p++)
    rankOrder &= d[p] == d[p - 1] + byPos[p - 1]->bytesPerInstance;
  all.note = rankOrder ? "every member's block, of a count of its own, reached every other member, "
                         "one block after the other in rank order"
                       : "every member's block, of a count of its own, reached every other member, at "
                         "displacements that every rank shares (not one block after the other in rank "
                         "order)";
}

} // namespace cz::detect::detail
