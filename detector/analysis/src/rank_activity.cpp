// rank_activity.cpp: see rank_activity.h.
#include "rank_activity.h"
#include "rank_values.h"

#include <algorithm>

namespace cz::detect::detail {

template <class Pos>
void RankActivity::Buckets::add(uint32_t base, size_t n, Pos pos) {
  if (from.empty()) from.push_back(0);
  const uint32_t last = n ? pos(n - 1) : 0;
  // 32 positions a bucket, wider where a rank's entries are sparse: at
  // most about two buckets per entry.
  uint8_t s = 5;
  while (s < 31 && (uint64_t(last) >> s) > 2 * uint64_t(n) + 1) s++;
  const uint64_t buckets = (uint64_t(last) >> s) + 2;
  size_t k = 0;
  for (uint64_t b = 0; b < buckets; b++) {
    while (k < n && (uint64_t(pos(k)) >> s) < b) k++;
    first.push_back(base + uint32_t(k));
  }
  from.push_back(first.size());
  shift.push_back(s);
}

bool RankActivity::Buckets::range(uint32_t rank, uint32_t pos, uint32_t &lo, uint32_t &hi) const {
  const size_t b = from[rank] + (pos >> shift[rank]);
  if (b + 1 >= from[rank + 1]) return false;
  lo = first[b], hi = first[b + 1];
  return true;
}

namespace {

// A rank's receipts in position order. Positions are a rank's event
// numbers, one receive completing at each: when they are dense enough,
// each receipt is put at its position in a scratch array and read back in
// order (the sort of every rank's receipts was 4 % of the detector's
// instructions on the bench trace); sparse or repeated positions are
// sorted.
void sortByPosition(std::vector<Receipt> &v, std::vector<uint32_t> &atPos) {
  auto byPos = [](const Receipt &a, const Receipt &b) { return a.pos < b.pos; };
  uint32_t last = 0;
  for (const Receipt &r : v) last = std::max(last, r.pos);
  if (v.size() < 64 || uint64_t(last) > 4 * uint64_t(v.size()) + 1024) {
    std::sort(v.begin(), v.end(), byPos);
    return;
  }
  atPos.assign(size_t(last) + 1, kNone);
  for (const Receipt &r : v) {
    if (atPos[r.pos] != kNone) { // two receipts at one position
      std::sort(v.begin(), v.end(), byPos);
      return;
    }
    atPos[r.pos] = r.msg;
  }
  size_t k = 0;
  for (uint32_t pos = 0; pos <= last; pos++)
    if (atPos[pos] != kNone) v[k++] = {pos, atPos[pos]};
}

} // namespace

void RankActivity::index() const {
  if (indexed_) return;
  receipts_.assign(rankSpan(t_), {}); // records may name ranks beyond t.ranks
  for (uint32_t i = 0; i < t_.messages.size(); i++)
    if (t_.messages[i].dst < receipts_.size())
      receipts_[t_.messages[i].dst].push_back({t_.messages[i].recvPos, i});
  slot_.assign(t_.messages.size(), 0);
  std::vector<uint32_t> atPos; // scratch of sortByPosition, reused across ranks
  for (auto &v : receipts_) {
    sortByPosition(v, atPos);
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
  for (const std::vector<Receipt> &v : receipts_)
    receiptBuckets_.add(0, v.size(), [&](size_t k) { return v[k].pos; });
  for (size_t r = 0; r < receipts_.size(); r++)
    sendBuckets_.add(sendsFrom_[r], sendsFrom_[r + 1] - sendsFrom_[r],
                     [&](size_t k) { return sendPos_[sendsFrom_[r] + k]; });
  indexed_ = true;
}

uint32_t RankActivity::firstSendAt(uint32_t rank, uint32_t pos) const {
  index();
  if (rank >= receipts_.size()) return uint32_t(t_.messages.size());
  uint32_t lo, hi;
  if (!sendBuckets_.range(rank, pos, lo, hi)) return sendsFrom_[rank + 1];
  return uint32_t(std::lower_bound(sendPos_.begin() + lo, sendPos_.begin() + hi, pos) -
                  sendPos_.begin());
}

size_t RankActivity::firstReceiptAfter(uint32_t rank, uint32_t pos) const {
  const std::vector<Receipt> &v = receipts(rank);
  uint32_t lo, hi;
  if (!receiptBuckets_.range(rank, pos, lo, hi)) return v.size();
  return size_t(std::upper_bound(v.begin() + lo, v.begin() + hi, pos,
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
