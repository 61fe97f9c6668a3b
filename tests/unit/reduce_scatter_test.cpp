// reduce_scatter_test.cpp: ring reduce-scatters on hand-built traces
// (reduce_scatter.cpp): each rank holds P blocks of four ints and sends
// one block per step, combining what arrives. The kept block, the values
// (a fill proves nothing) and what follows (an allgather of the finished
// blocks makes an allreduce) decide what is reported.
#include <gtest/gtest.h>
#include <zlib.h>

#include <array>
#include <cstring>
#include <vector>

#include "collectivize/detect.h"
#include "collectivize_trace_format.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz::trace::EventKind;
using cz_test::Script;
using Block = std::array<int32_t, 4>;

struct Ring {
  int p;
  Script s;
  std::vector<std::vector<Block>> acc; // acc[rank][block]
  explicit Ring(int p, bool zeros) : p(p), s(p), acc(size_t(p), std::vector<Block>(size_t(p))) {
    for (int r = 0; r < p; r++)
      for (int k = 0; k < p; k++)
        for (int i = 0; i < 4; i++) acc[size_t(r)][size_t(k)][size_t(i)] = zeros ? 0 : r * 100 + k * 4 + i;
  }
  static uint64_t base(int r) { return 0x100000 + uint64_t(r) * 0x10000; }
  static uint64_t scratch(int r) { return 0x900000 + uint64_t(r) * 0x100; }
  int mod(int x) const { return ((x % p) + p) % p; }

  // One step: rank r sends block out(r) to r + 1 and receives from r - 1,
  // adding it into block into(r) (combine) or storing it there (forward,
  // received in place).
  template <class Out, class Into> void step(Out out, Into into, bool combine) {
    std::vector<Block> sent(static_cast<size_t>(p));
    for (int r = 0; r < p; r++) {
      sent[size_t(r)] = acc[size_t(r)][size_t(out(r))];
      add(r, EventKind::Send, mod(r + 1), sent[size_t(r)], base(r) + uint64_t(out(r)) * 16);
    }
    for (int r = 0; r < p; r++) {
      int from = mod(r - 1);
      add(r, EventKind::Recv, from, {}, combine ? scratch(r) : base(r) + uint64_t(into(r)) * 16);
      Block &b = acc[size_t(r)][size_t(into(r))];
      for (int i = 0; i < 4; i++) b[size_t(i)] = (combine ? b[size_t(i)] : 0) + sent[size_t(from)][size_t(i)];
    }
  }
  // The ring reduce-scatter; shift 0 leaves rank r block r, shift 1 block r + 1.
  void reduceScatter(int shift) {
    for (int st = 0; st < p - 1; st++)
      step([&](int r) { return mod(r - st - 1 + shift); }, [&](int r) { return mod(r - st - 2 + shift); }, true);
  }
  // The ring allgather of the blocks the reduce-scatter left.
  void allgather() {
    for (int st = 0; st < p - 1; st++)
      step([&](int r) { return mod(r - st); }, [&](int r) { return mod(r - st - 1); }, false);
  }
  cz::detect::Report detect(const std::string &name) { return cz::detect::detect(s.table(name)); }

private:
  void add(int rank, EventKind kind, int peer, const Block &v, uint64_t address) {
    uint8_t bytes[16];
    std::memcpy(bytes, v.data(), 16);
    uint64_t prefix = 0;
    std::memcpy(&prefix, bytes, 8);
    auto &e = s.add(rank, kind, peer, 5, 16, uint32_t(crc32(0, bytes, 16)), address);
    e.count = 4;
    e.datatype = CZ_TRACE_TYPE_INT;
    if (kind == EventKind::Send) e.prefix = prefix;
  }
};

TEST(ReduceScatterRing, KeepsItsOwnBlockButTheOperationStaysUnknown) {
  for (int p : {3, 4, 5}) {
    Ring ring(p, false);
    ring.reduceScatter(0);
    cz::detect::Report rep = ring.detect("rs-" + std::to_string(p));
    ASSERT_EQ(rep.matches.size(), 1u) << p;
    const cz::detect::Match &m = rep.matches[0];
    EXPECT_EQ(m.kind, Kind::ReduceScatter);
    EXPECT_FALSE(m.confirmed);
    EXPECT_EQ(m.unproven, uint32_t(cz::detect::kReductionOp));
    EXPECT_EQ(m.op, "");
    EXPECT_EQ(m.count, 4u);
    EXPECT_EQ(m.recvLayout, "");
  }
}

TEST(ReduceScatterRing, AnotherKeptBlockIsNotMpisOrder) {
  Ring ring(4, false);
  ring.reduceScatter(1);
  cz::detect::Report rep = ring.detect("rs-shifted");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::ReduceScatter);
  EXPECT_EQ(rep.matches[0].recvLayout, "permuted");
}

TEST(ReduceScatterRing, ZerosShowNoCombining) {
  Ring ring(4, true);
  ring.reduceScatter(0);
  cz::detect::Report rep = ring.detect("rs-zeros");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::ReduceScatter);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_TRUE(rep.matches[0].unproven & cz::detect::kPayloadFill);
}

TEST(ReduceScatterRing, FollowedByAnAllgatherIsOneAllreduce) {
  Ring ring(4, false);
  ring.reduceScatter(0);
  ring.allgather();
  cz::detect::Report rep = ring.detect("rs-allreduce");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Allreduce);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_EQ(rep.matches[0].count, 16u);
}

TEST(ReduceScatterRing, ForwardedBlocksAreNoReduceScatter) {
  Ring ring(4, false);
  ring.allgather();
  cz::detect::Report rep = ring.detect("rs-forward");
  for (const cz::detect::Match &m : rep.matches) EXPECT_NE(m.kind, Kind::ReduceScatter);
}

} // namespace
