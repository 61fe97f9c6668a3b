// rank_activity_test.cpp: a rank's receipts come in position order, and
// receiptOf finds each message's, whether the positions are dense (put in
// place by position), sparse, or repeated (sorted).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "rank_activity.h"

namespace {

using cz::detect::Message;
using cz::detect::MessageTable;
using cz::detect::detail::RankActivity;
using cz::detect::detail::Receipt;

// Rank 1 sends n messages to rank 0 (table order: by send position); the
// k-th completes at rank 0's position recvPos(k).
MessageTable oneSender(uint32_t n, uint32_t (*recvPos)(uint32_t k)) {
  MessageTable t;
  t.ranks = 2;
  for (uint32_t k = 0; k < n; k++) {
    Message m;
    m.src = 1, m.dst = 0, m.sendPos = k, m.recvPos = recvPos(k);
    t.messages.push_back(m);
  }
  return t;
}

void expectInPositionOrder(const MessageTable &t) {
  RankActivity activity(t);
  const std::vector<Receipt> &got = activity.receipts(0);
  ASSERT_EQ(got.size(), t.messages.size());
  for (size_t j = 0; j < got.size(); j++) {
    EXPECT_EQ(got[j].pos, t.messages[got[j].msg].recvPos);
    if (j) EXPECT_LE(got[j - 1].pos, got[j].pos);
    EXPECT_EQ(activity.receiptOf(got[j].msg), j);
  }
  std::vector<uint32_t> msgs;
  for (const Receipt &r : got) msgs.push_back(r.msg);
  std::sort(msgs.begin(), msgs.end());
  for (uint32_t k = 0; k < msgs.size(); k++) EXPECT_EQ(msgs[k], k); // each message once
}

TEST(RankActivity, DenseShuffledPositionsComeInOrder) {
  // 500 receives at odd positions, completed in a shuffled order.
  expectInPositionOrder(oneSender(500, [](uint32_t k) { return (k * 7919u) % 500u * 2u + 1u; }));
}

TEST(RankActivity, SparsePositionsComeInOrder) {
  expectInPositionOrder(oneSender(100, [](uint32_t k) { return (99u - k) * 100000u; }));
}

TEST(RankActivity, RepeatedPositionsComeInOrder) {
  expectInPositionOrder(oneSender(300, [](uint32_t k) { return (300u - k) / 2u; }));
}

} // namespace
