// The last step of an allreduce read from messages (final_combine.cpp):
// partial values received through the loop's receive call are taken as
// combined; other partial values through a call of their own are not
// shown combined (kFinalCombine); one value through a call of its own is
// the result going down, as to the ranks outside a hypercube.
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "detect_script.h"
#include "final_combine.h"

namespace {

using cz::detect::Kind;
using cz_test::EventKind;
using cz_test::Script;

constexpr uint64_t kSendSite = 31, kLoopRecv = 32, kOwnRecv = 42;

// A send or a receive of 8 bytes at a call site.
void event(Script &s, int rank, EventKind kind, int peer, uint32_t crc, uint64_t site) {
  s.add(rank, kind, peer, 0, 8, crc, kind == EventKind::Send ? 0x100 : 0x200);
  s.spec.events[size_t(rank)].back().siteKind = 0;
  s.spec.events[size_t(rank)].back().site = site;
}

// Recursive doubling on 4 ranks: in step 1 rank r swaps with r ^ 2, in
// step 2 with r ^ 1; every payload differs (partial sums), unless
// `lastValue` gives the last step's one value. The last step's receives go
// through `lastRecv`.
cz::detect::MessageTable butterfly(const std::string &name, uint64_t lastRecv,
                                   uint32_t lastValue = 0) {
  Script s(4);
  uint32_t crc = 100;
  for (int mask : {2, 1}) {
    const bool last = mask == 1;
    for (int r = 0; r < 4; r++)
      event(s, r, EventKind::Send, r ^ mask, last && lastValue ? lastValue : crc++, kSendSite);
    for (int r = 0; r < 4; r++) event(s, r, EventKind::Recv, r ^ mask, 0, last ? lastRecv : kLoopRecv);
  }
  return s.table(name);
}

// One allreduce instance of every message of the table.
uint32_t unprovenOfAll(const cz::detect::MessageTable &t) {
  std::vector<cz::detect::detail::Instance> instances(1);
  instances[0].kind = Kind::Allreduce;
  for (uint32_t i = 0; i < t.messages.size(); i++) instances[0].messages.push_back(i);
  cz::detect::detail::markUnseenFinalCombines(t, instances);
  return instances[0].unproven;
}

TEST(FinalCombine, TheLoopsLastStepIsCombined) {
  EXPECT_EQ(unprovenOfAll(butterfly("final-loop", kLoopRecv)) & cz::detect::kFinalCombine, 0u);
}

TEST(FinalCombine, PartialValuesThroughACallOfTheirOwnAreNotShownCombined) {
  EXPECT_NE(unprovenOfAll(butterfly("final-own", kOwnRecv)) & cz::detect::kFinalCombine, 0u);
}

TEST(FinalCombine, OneValueThroughACallOfItsOwnIsTheResult) {
  EXPECT_EQ(unprovenOfAll(butterfly("final-result", kOwnRecv, 777)) & cz::detect::kFinalCombine, 0u);
}

TEST(FinalCombine, TheResultSentToRanksOutsideAHypercube) {
  // Ranks 4 and 5 fold their values into 0 and 1, ranks 0-3 run the
  // butterfly through the loop's call, then 0 and 1 send the result (one
  // value) back to 4 and 5 through a call of its own (BLACS' hypercube).
  Script s(6);
  event(s, 4, EventKind::Send, 0, 50, kSendSite);
  event(s, 5, EventKind::Send, 1, 51, kSendSite);
  event(s, 0, EventKind::Recv, 4, 0, kLoopRecv);
  event(s, 1, EventKind::Recv, 5, 0, kLoopRecv);
  uint32_t crc = 100;
  for (int mask : {2, 1}) {
    for (int r = 0; r < 4; r++) event(s, r, EventKind::Send, r ^ mask, crc++, kSendSite);
    for (int r = 0; r < 4; r++) event(s, r, EventKind::Recv, r ^ mask, 0, kLoopRecv);
  }
  event(s, 0, EventKind::Send, 4, 999, kSendSite);
  event(s, 1, EventKind::Send, 5, 999, kSendSite);
  event(s, 4, EventKind::Recv, 0, 0, kOwnRecv);
  event(s, 5, EventKind::Recv, 1, 0, kOwnRecv);
  EXPECT_EQ(unprovenOfAll(s.table("final-hypercube")) & cz::detect::kFinalCombine, 0u);
}

} // namespace
