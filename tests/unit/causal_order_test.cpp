// causal_order_test.cpp: the detector's causal pass (causal_order.h) on
// hand-built events: times that contradict the matching are raised and the
// raise carries over to the rank's later events; consistent times stay.
#include <gtest/gtest.h>

#include "collectivize/causal_order.h"
#include "detect_script.h"

namespace cz::detect {
namespace {

using Events = std::vector<std::vector<CausalEvent>>;

CausalEvent send(uint32_t rank, uint32_t pos, uint64_t t) {
  return {pos, CausalEvent::Send, rank, pos, t, 0};
}
CausalEvent recv(uint32_t pos, uint32_t src, uint32_t sendPos, uint64_t t) {
  return {pos, CausalEvent::Receive, src, sendPos, t, 0};
}

TEST(CausalOrder, ConsistentTimesStay) {
  Events e{{send(0, 0, 100), recv(1, 1, 0, 400)}, {recv(0, 0, 0, 150), send(1, 1, 300)}};
  EXPECT_TRUE(causallyOrdered(e));
  Events before = e;
  EXPECT_EQ(orderCausally(e), 0u);
  for (size_t r = 0; r < e.size(); r++)
    for (size_t i = 0; i < e[r].size(); i++) EXPECT_EQ(e[r][i].time, before[r][i].time);
}

// Rank 1's clock runs 1000 behind: its receive looks earlier than rank 0's
// send, and so does the forward to rank 2.
TEST(CausalOrder, ReceiveBeforeItsSendIsRaisedWithWhatFollows) {
  Events e{{send(0, 0, 5000)},
           {recv(0, 0, 0, 4100), send(1, 1, 4200)},
           {recv(0, 1, 1, 5300)}};
  EXPECT_FALSE(causallyOrdered(e));
  EXPECT_GT(orderCausally(e), 0u);
  EXPECT_TRUE(causallyOrdered(e));
  EXPECT_EQ(e[1][0].time, 5001u);       // just after its send
  EXPECT_EQ(e[1][1].time, 5101u);       // the rank's interval kept (+900)
  EXPECT_EQ(e[2][0].time, 5300u);       // already after the forward
}

// A send at the very time of the receive before it moves after it (the
// replay puts sends before receives at equal times).
TEST(CausalOrder, EventAfterReceiveIsStrictlyLater) {
  Events e{{send(0, 0, 10)}, {recv(0, 0, 0, 20), send(1, 1, 20)}};
  EXPECT_FALSE(causallyOrdered(e));
  orderCausally(e);
  EXPECT_EQ(e[1][1].time, 21u);
}

// Receives waiting for each other's sends (no real run does that) do not
// hang the pass.
TEST(CausalOrder, CycleIsBroken) {
  Events e{{recv(0, 1, 1, 10), send(0, 1, 20)}, {recv(0, 0, 1, 15), send(1, 1, 25)}};
  orderCausally(e);
  EXPECT_LE(e[0][0].time, e[0][1].time);
  EXPECT_LE(e[1][0].time, e[1][1].time);
}

} // namespace
// Dense positions (a rank's event numbers: the pass finds sends in a table)
// and the same events at sparse positions (found by binary search) give
// the same times: a ring exchange on skewed clocks, with waits and raises.
TEST(CausalOrder, DenseAndSparsePositionsAgree) {
  const uint32_t ranks = 4, steps = 300;
  auto build = [&](uint32_t scale) {
    Events e(ranks);
    for (uint32_t r = 0; r < ranks; r++)
      for (uint32_t k = 0; k < steps; k++) {
        uint64_t t = 100000 + 1000 * k + 37 * ((k * 7 + r * 3) % 11) - 700 * r;
        uint32_t src = (r + ranks - 1) % ranks;
        e[r].push_back(send(r, 2 * k * scale, t));
        e[r].push_back(recv((2 * k + 1) * scale, src, 2 * k * scale, t + 5));
      }
    return e;
  };
  Events dense = build(1), sparse = build(100000);
  EXPECT_FALSE(causallyOrdered(dense));
  uint64_t raisedDense = orderCausally(dense), raisedSparse = orderCausally(sparse);
  EXPECT_GT(raisedDense, 0u);
  EXPECT_EQ(raisedDense, raisedSparse);
  EXPECT_TRUE(causallyOrdered(dense));
  for (uint32_t r = 0; r < ranks; r++)
    for (size_t i = 0; i < dense[r].size(); i++)
      ASSERT_EQ(dense[r][i].time, sparse[r][i].time) << "rank " << r << ", event " << i;
}

// A chain's step within the clock's resolution: rank 1 forwards what it
// received, stamped at the very time of the receive. The replays put sends
// first at equal times, so the send is raised past the receive, also where
// every receive already follows its send (the check before the pass; the
// wavefront lost a chain without it). A send that came before the receive
// in program order at the same stamp stays where it is.
const Message *from(const MessageTable &t, uint32_t src) {
  for (const Message &m : t.messages)
    if (m.src == src) return &m;
  return nullptr;
}

// Rank 0 sends to rank 1 at 100, rank 1 sends to rank 2 and receives
// rank 0's message, both at 200 (forwardFirst: the send comes first in its
// program order), rank 2 receives at 300.
MessageTable relayAtOneStamp(const std::string &name, bool forwardFirst) {
  using cz_test::EventKind;
  cz_test::Script s(3);
  s.add(0, EventKind::Send, 1, 0, 8, 0x11, 0x1000).timestamp = 100;
  if (forwardFirst) s.add(1, EventKind::Send, 2, 0, 8, 0x22, 0x2100).timestamp = 200;
  s.add(1, EventKind::Recv, 0, 0, 8, 0, 0x2000).timestamp = 200;
  if (!forwardFirst) s.add(1, EventKind::Send, 2, 0, 8, 0x22, 0x2100).timestamp = 200;
  s.add(2, EventKind::Recv, 1, 0, 8, 0, 0x3000).timestamp = 300;
  return s.table(name);
}

TEST(CausalOrder, SendAtTheTimeOfItsRanksEarlierReceiveIsRaised) {
  MessageTable t = relayAtOneStamp("causal-send-at-receive", false);
  ASSERT_NE(from(t, 1), nullptr);
  ASSERT_NE(from(t, 0), nullptr);
  EXPECT_EQ(from(t, 0)->recvTime, 200u);
  EXPECT_EQ(from(t, 1)->sendTime, 201u);
  EXPECT_EQ(from(t, 1)->recvTime, 300u);
}

TEST(CausalOrder, SendBeforeAReceiveAtTheSameTimeStays) {
  MessageTable t = relayAtOneStamp("causal-send-then-receive", true);
  ASSERT_NE(from(t, 1), nullptr);
  ASSERT_NE(from(t, 0), nullptr);
  EXPECT_EQ(from(t, 1)->sendTime, 200u);
  EXPECT_EQ(from(t, 0)->recvTime, 200u);
}

} // namespace cz::detect
