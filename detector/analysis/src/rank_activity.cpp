// rank_activity.cpp: see rank_activity.h.
#include "rank_activity.h"
#include "rank_values.h"

#include <algorithm>

namespace cz::detect::detail {

void RankActivity::index() const {
  if (indexed_) return;
  receipts_.assign(rankSpan(t_), {}); // records may name ranks beyond t.ranks
  for (uint32_t i = 0; i < t_.messages.size(); i++)
    if (t_.messages[i].dst < receipts_.size())
      receipts_[t_.messages[i].dst].push_back({t_.messages[i].recvPos, i});
  slot_.assign(t_.messages.size(), 0);
  for (auto &v : receipts_) {
    std::sort(v.begin(), v.end(), [](const Receipt &a, const Receipt &b) { return a.pos < b.pos; });
    for (size_t k = 0; k < v.size(); k++) slot_[v[k].msg] = uint32_t(k);
  }
  indexed_ = true;
}

const std::vector<Receipt> &RankActivity::receipts(uint32_t rank) const {
  index();
  return receipts_[rank];
}

size_t RankActivity::receiptOf(uint32_t message) const {
  index();
  return slot_[message];
}

size_t RankActivity::firstReceiptAfter(uint32_t rank, uint32_t pos) const {
  const std::vector<Receipt> &v = receipts(rank);
  return size_t(std::upper_bound(v.begin(), v.end(), pos,
                                 [](uint32_t p, const Receipt &r) { return p < r.pos; }) -
                v.begin());
}

bool RankActivity::receivedBetween(uint32_t rank, uint32_t from, uint32_t comm, uint32_t after,
                                   uint32_t before) const {
  const std::vector<Receipt> &v = receipts(rank);
  for (size_t k = firstReceiptAfter(rank, after); k < v.size() && v[k].pos < before; k++) {
    const Message &m = t_.messages[v[k].msg];
    if (m.src == from && m.comm == comm) return true;
  }
  return false;
}

bool RankActivity::receivedBetween(uint32_t rank, uint32_t after, uint32_t before) const {
  const std::vector<Receipt> &v = receipts(rank);
  size_t k = firstReceiptAfter(rank, after);
  return k < v.size() && v[k].pos < before;
}

bool RankActivity::sentBetween(uint32_t rank, uint32_t after, uint32_t before) const {
  // The table is ordered by (src, sendPos): the rank's first send after
  // `after` is found by binary search.
  auto it = std::lower_bound(t_.messages.begin(), t_.messages.end(), std::make_pair(rank, after + 1),
                             [](const Message &m, const std::pair<uint32_t, uint32_t> &k) {
                               return m.src != k.first ? m.src < k.first : m.sendPos < k.second;
                             });
  return it != t_.messages.end() && it->src == rank && it->sendPos < before;
}

} // namespace cz::detect::detail
