// causal_order_test.cpp: the detector's causal pass (causal_order.h) on
// hand-built events: times that contradict the matching are raised and the
// raise carries over to the rank's later events; consistent times stay.
#include <gtest/gtest.h>

#include "collectivize/causal_order.h"

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
} // namespace cz::detect
