// Exchanges received into one scratch place (scratch_exchange.cpp): every
// member sends each other member a block of its own and receives them all
// at one address. One call per side (a loop over the peers) is an
// ambiguous alltoall, reduce_scatter its other kind; blocks that leave
// through several calls are neighbour exchanges that reach every rank
// only because few ranks ran, and equal blocks to all are no alltoall.
#include <gtest/gtest.h>

#include <cstring>

#include "collectivize/detect.h"
#include "collectivize_trace_format.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz::detect::Unproven;
using cz_test::EventKind;
using cz_test::Script;

// p ranks, `rounds` phase loops: at phase k rank me sends to me+k (from
// 0x100) and receives from me-k into 0x200. Each call's site is `site`,
// or one site per phase when `sitePerPhase` (an unrolled neighbour
// exchange); `sameData`: a rank sends one payload to all.
cz::detect::MessageTable phases(const std::string &name, int p, int rounds, bool sitePerPhase,
                                bool sameData) {
  Script s(p);
  for (int r = 0; r < rounds; r++)
    for (int k = 1; k < p; k++) {
      for (int me = 0; me < p; me++) {
        int to = (me + k) % p;
        uint32_t crc = sameData ? uint32_t(1000 * r + me + 1) : uint32_t(100000 * r + 100 * me + to + 1);
        auto &e = s.add(me, EventKind::Send, to, uint32_t(k), 64, crc, 0x100);
        // Eight doubles whose first is the block's own value (a transposed
        // matrix's entries): no reduction of what a rank received gives it.
        double first = sameData ? 1.5 * (r + 1) + me : 1000.0 * r + 10.0 * me + to + 0.25;
        uint64_t bits;
        std::memcpy(&bits, &first, sizeof bits);
        e.prefix = bits;
        e.datatype = CZ_TRACE_TYPE_DOUBLE;
        e.count = 8;
        e.siteKind = 0;
        e.site = sitePerPhase ? uint64_t(10 + k) : 10;
      }
      for (int me = 0; me < p; me++) {
        auto &e = s.add(me, EventKind::Recv, (me - k + p) % p, uint32_t(k), 64, 0, 0x200);
        e.datatype = CZ_TRACE_TYPE_DOUBLE;
        e.count = 8;
        e.siteKind = 0;
        e.site = sitePerPhase ? uint64_t(20 + k) : 20;
      }
    }
  return s.table(name);
}

TEST(ScratchExchange, APhaseLoopIntoOneBufferIsAnAmbiguousAlltoall) {
  auto rep = cz::detect::detect(phases("scratch-loop", 4, 3, false, false));
  ASSERT_EQ(rep.matches.size(), 1u);
  const auto &m = rep.matches[0];
  EXPECT_EQ(m.kind, Kind::Alltoall);
  EXPECT_FALSE(m.confirmed);
  EXPECT_EQ(m.unproven, uint32_t(cz::detect::kScratchReceive));
  EXPECT_EQ(m.otherKinds, (std::vector<Kind>{Kind::ReduceScatter}));
  EXPECT_EQ(m.recvLayout, "scratch");
  EXPECT_EQ(m.instances, 3u);
}

TEST(ScratchExchange, OneCallPerPeerIsNoAlltoall) {
  auto rep = cz::detect::detect(phases("scratch-unrolled", 4, 3, true, false));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, Kind::Alltoall);
}

TEST(ScratchExchange, OnePayloadToAllIsNoAlltoall) {
  auto rep = cz::detect::detect(phases("scratch-same", 4, 3, false, true));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, Kind::Alltoall);
}

} // namespace
