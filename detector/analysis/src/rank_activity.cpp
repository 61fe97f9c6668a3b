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
  // The table is ordered by sender: rank r's sends begin after those of
  // the ranks below it.
  sendPos_.resize(t_.messages.size());
  sendsFrom_.assign(receipts_.size() + 1, 0);
  for (uint32_t i = 0; i < t_.messages.size(); i++) {
    sendPos_[i] = t_.messages[i].sendPos;
    if (t_.messages[i].src < receipts_.size()) sendsFrom_[t_.messages[i].src + 1]++;
  }
  for (size_t r = 0; r < receipts_.size(); r++) sendsFrom_[r + 1] += sendsFrom_[r];
  indexed_ = true;
}

uint32_t RankActivity::firstSendAt(uint32_t rank, uint32_t pos) const {
  index();
  if (rank >= receipts_.size()) return uint32_t(t_.messages.size());
  auto from = sendPos_.begin() + sendsFrom_[rank], to = sendPos_.begin() + sendsFrom_[rank + 1];
  return uint32_t(std::lower_bound(from, to, pos) - sendPos_.begin());
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
  uint32_t i = firstSendAt(rank, after + 1);
  return i < t_.messages.size() && t_.messages[i].src == rank && t_.messages[i].sendPos < before;
}

} // namespace cz::detect::detail
