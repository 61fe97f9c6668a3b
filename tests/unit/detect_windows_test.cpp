// detect_windows_test.cpp: time windows (windows.h) on hand-built traces:
// where the cuts go, that every message lands in exactly one window with
// its provenance, and that findings merged over windows give the report
// of one window when no collective spans a cut.
#include <gtest/gtest.h>

#include <string>

#include "collectivize/detect.h"
#include "collectivize/provenance.h"
#include "collectivize/windows.h"
#include "detect_script.h"

namespace {

using cz::detect::kNone;
using cz::detect::MessageTable;
using cz::detect::planWindows;
using cz::detect::windowOf;
using cz::trace::EventKind;
using cz_test::Script;

// Three linear broadcasts from rank 0 to ranks 1-4, idle time between
// them; crc(b) is burst b's payload.
Script threeBursts(uint32_t (*crc)(int burst)) {
  Script s(5);
  for (int b = 0; b < 3; b++) {
    for (int r = 1; r < 5; r++) s.message(0, r, 64, crc(b), 0x1000, 0x2000);
    s.clock += 1000000; // the program computes
  }
  return s;
}

TEST(Windows, CutsFallInTheIdleTimeBetweenBursts) {
  Script s = threeBursts([](int b) { return 0xa0u + uint32_t(b); });
  MessageTable t = s.table("windows-bursts");
  ASSERT_EQ(t.messages.size(), 12u);
  EXPECT_EQ(planWindows(t, 0).windows(), 1u);  // no windows asked for
  EXPECT_EQ(planWindows(t, 12).windows(), 1u); // all fit in one
  auto plan = planWindows(t, 4);
  ASSERT_EQ(plan.windows(), 3u);
  for (const auto &m : t.messages) EXPECT_EQ(plan.windowOf(m.sendTime), m.crc - 0xa0u);
  // Windows of up to 8: the one cut goes in one of the two gaps.
  EXPECT_EQ(planWindows(t, 8).windows(), 2u);
}

TEST(Windows, RepeatedBroadcastIsOneMatchAcrossWindows) {
  Script s = threeBursts([](int) { return 0xbeefu; });
  MessageTable t = s.table("windows-repeated");
  cz::detect::DetectOptions whole, windowed;
  whole.windowMessages = 0;
  windowed.windowMessages = 4;
  auto one = cz::detect::detect(t, whole), three = cz::detect::detect(t, windowed);
  ASSERT_EQ(one.matches.size(), 1u);
  ASSERT_EQ(three.matches.size(), 1u);
  const auto &a = one.matches[0], &b = three.matches[0];
  EXPECT_EQ(a.kind, cz::detect::Kind::Bcast);
  EXPECT_TRUE(b.confirmed);
  EXPECT_EQ(a.instances, 3u);
  EXPECT_EQ(b.instances, a.instances);
  EXPECT_EQ(b.messages, a.messages);
  EXPECT_EQ(b.bytesMoved, a.bytesMoved);
  EXPECT_EQ(b.secondsInMessages, a.secondsInMessages);
  EXPECT_EQ(b.rootWorld, a.rootWorld);
  EXPECT_EQ(b.sites, a.sites);
  EXPECT_EQ(one.warnings.size() + 1, three.warnings.size());
  EXPECT_NE(three.warnings.back().find("3 time windows"), std::string::npos);
}

TEST(Windows, WithoutIdleTimeTheCutHasTheFewestMessagesInFlight) {
  Script s(3);
  // Rank 0's message to rank 2 is in flight the whole time; rank 1's
  // messages to rank 2 come and go.
  s.add(0, EventKind::Send, 2, 7, 8, 0x77, 0x100);
  for (int k = 0; k < 20; k++) {
    s.message(1, 2, 8, 0x1000u + uint32_t(k), 0x200, 0x300);
    s.clock += 1000;
  }
  s.add(2, EventKind::Recv, 0, 7, 8, 0, 0x400);
  MessageTable t = s.table("windows-busy");
  ASSERT_EQ(t.messages.size(), 21u);
  auto plan = planWindows(t, 6);
  ASSERT_GT(plan.windows(), 2u);
  const auto pv = cz::detect::detail::traceProvenance(t);
  size_t total = 0;
  for (size_t w = 0; w < plan.windows(); w++) {
    auto part = windowOf(t, pv, plan, w);
    total += part.table.messages.size();
    for (const auto &m : part.table.messages) {
      EXPECT_EQ(plan.windowOf(m.sendTime), w);
      if (m.crc == 0x77) EXPECT_EQ(w, 0u); // with its send, though received in the last
    }
  }
  EXPECT_EQ(total, t.messages.size());
}

TEST(Windows, ProvenanceKeepsOriginsMadeBeforeTheWindow) {
  Script s(3);
  s.message(0, 1, 64, 0xd00d, 0x1000, 0x2000); // rank 0's own data
  s.message(2, 1, 64, 0x5eed, 0x1000, 0x3000); // unrelated, to fill the window
  s.clock += 1000000;
  s.message(1, 2, 64, 0xd00d, 0x2000, 0x4000); // forwarded after a pause
  s.message(2, 0, 64, 0x6eed, 0x5000, 0x6000);
  MessageTable t = s.table("windows-provenance");
  auto plan = planWindows(t, 2);
  ASSERT_EQ(plan.windows(), 2u);
  const auto pv = cz::detect::detail::traceProvenance(t);
  auto later = windowOf(t, pv, plan, 1);
  ASSERT_EQ(later.table.messages.size(), 2u);
  // The forward carries rank 0's origin, first carried in window 0.
  size_t forward = later.table.messages[0].crc == 0xd00d ? 0 : 1;
  ASSERT_EQ(later.table.messages[forward].crc, 0xd00du);
  auto run = later.provenance.segments[forward];
  ASSERT_EQ(run.size(), 1u);
  const auto &origin = later.provenance.origins.at(run[0].origin);
  EXPECT_EQ(origin.rank, 0u);
  EXPECT_EQ(origin.firstMessage, kNone);
  // In window 0 the same origin names its first message there.
  auto earlier = windowOf(t, pv, plan, 0);
  bool named = false;
  for (const auto &o : earlier.provenance.origins)
    if (o.rank == 0) {
      ASSERT_NE(o.firstMessage, kNone);
      EXPECT_EQ(earlier.table.messages[o.firstMessage].crc, 0xd00du);
      named = true;
    }
  EXPECT_TRUE(named);
}

} // namespace
