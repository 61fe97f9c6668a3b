// prefix_reduction_test.cpp: scans and exscans on hand-built traces of two
// ints per message (prefix_reduction.cpp, forwarded_prefix.cpp): the
// values decide the kind and the operation; equal values, a chain whose
// contributions never travel, and unchanged data along a chain do not
// make a confirmed scan.
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
using Pair = std::array<int32_t, 2>;

// A rank's value in a test: distinct per rank, not a fill.
Pair own(int r) { return {3 * r * r + 11, 100 - 7 * r}; }
Pair plus(Pair a, Pair b) { return {a[0] + b[0], a[1] + b[1]}; }

// Messages of two MPI_INTs whose prefix and CRC are those of the values.
struct IntScript {
  Script s;
  explicit IntScript(int p) : s(p) {}
  void send(int src, int dst, Pair v, uint32_t tag = 0) { add(src, EventKind::Send, dst, v, tag); }
  void recv(int dst, int src, uint32_t tag = 0) { add(dst, EventKind::Recv, src, {0, 0}, tag); }
  void message(int src, int dst, Pair v, uint32_t tag = 0) {
    send(src, dst, v, tag);
    recv(dst, src, tag);
  }
  cz::detect::Report detect(const std::string &name) {
    return cz::detect::detect(s.table(name));
  }

private:
  void add(int rank, EventKind kind, int peer, Pair v, uint32_t tag) {
    uint8_t bytes[8];
    std::memcpy(bytes, v.data(), 8);
    uint64_t prefix = 0;
    std::memcpy(&prefix, bytes, 8);
    auto &e = s.add(rank, kind, peer, tag, 8, uint32_t(crc32(0, bytes, 8)),
                    0x1000 + uint64_t(rank) * 0x100 + (kind == EventKind::Send ? 0 : 0x40));
    e.count = 2;
    e.datatype = CZ_TRACE_TYPE_INT;
    if (kind == EventKind::Send) e.prefix = prefix;
  }
};

// Recursive doubling (step k: r -> r + 2^k, every send of a step before
// its receives), values v per rank; exclusive: a shift to r + 1 first
// (tag 1), then ranks 1..p-1 scan what they got.
IntScript doubling(int p, bool exclusive, bool zeros) {
  IntScript t(p);
  std::vector<Pair> v(static_cast<size_t>(p));
  for (int r = 0; r < p; r++) v[size_t(r)] = zeros ? Pair{0, 0} : own(r);
  int first = 0;
  if (exclusive) {
    for (int r = 0; r + 1 < p; r++) t.send(r, r + 1, v[size_t(r)], 1);
    for (int r = 1; r < p; r++) t.recv(r, r - 1, 1);
    for (int r = p - 1; r > 0; r--) v[size_t(r)] = v[size_t(r - 1)];
    first = 1;
  }
  for (int d = 1; d < p - first; d <<= 1) {
    std::vector<Pair> next = v;
    for (int r = first; r + d < p; r++) t.send(r, r + d, v[size_t(r)]);
    for (int r = first + d; r < p; r++) {
      t.recv(r, r - d);
      next[size_t(r)] = plus(v[size_t(r)], v[size_t(r - d)]);
    }
    v = next;
  }
  return t;
}

TEST(PrefixReduction, RecursiveDoublingIsAConfirmedScanWithItsOp) {
  auto rep = doubling(5, false, false).detect("scan-doubling");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Scan);
  EXPECT_TRUE(rep.matches[0].confirmed);
  EXPECT_EQ(rep.matches[0].op, "MPI_SUM");
  EXPECT_EQ(rep.matches[0].ranks.size(), 5u);
}

TEST(PrefixReduction, ShiftThenDoublingIsAConfirmedExscan) {
  auto rep = doubling(6, true, false).detect("exscan-doubling");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Exscan);
  EXPECT_TRUE(rep.matches[0].confirmed);
  EXPECT_EQ(rep.matches[0].op, "MPI_SUM");
}

TEST(PrefixReduction, ZerosFitEveryOperationAndStayAmbiguous) {
  auto rep = doubling(4, false, true).detect("scan-zeros");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Scan);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_TRUE(rep.matches[0].unproven & cz::detect::kReductionOp);
  EXPECT_EQ(rep.matches[0].op, "");
}

// Receive the sum from r-1, add the own value, send on: each rank sends
// once and its own value never travels, so no value pins an operation; it
// stays the reduction rule's (ambiguous) reduce, never a confirmed scan.
TEST(PrefixReduction, ChainOfRunningSumsIsNoConfirmedScan) {
  IntScript t(4);
  Pair sum = own(0);
  for (int r = 0; r + 1 < 4; r++) {
    t.message(r, r + 1, sum);
    sum = plus(sum, own(r + 1));
  }
  auto rep = t.detect("scan-chain");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Reduce);
  EXPECT_FALSE(rep.matches[0].confirmed);
}

// Each rank sends its own value to r+1 and forwards every value from below
// unchanged (the receivers combine them). rankOrder: the last rank receives
// the value of rank q at slot q of one buffer (a gather along the chain).
IntScript forwarding(int p, bool sameValue, bool rankOrder = false) {
  IntScript t(p);
  auto value = [&](int r) { return sameValue ? Pair{5, 5} : own(r); };
  for (int r = 0; r + 1 < p; r++) {
    t.send(r, r + 1, value(r));
    for (int q = r - 1; q >= 0; q--) { // what r-1 sent, in its order
      t.recv(r, r - 1);
      t.send(r, r + 1, value(q));
    }
  }
  // Rank p-2 sent its own value, then those of p-3 down to 0.
  for (int k = 0; k < p - 1; k++) {
    t.recv(p - 1, p - 2);
    if (rankOrder) t.s.spec.events[size_t(p - 1)].back().address = 0x9000 + 8 * uint64_t(p - 2 - k);
  }
  return t;
}

TEST(ForwardedPrefix, ForwardedValuesAreAnAmbiguousScan) {
  auto rep = forwarding(5, false).detect("scan-forwarded");
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Scan);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_TRUE(rep.matches[0].unproven & cz::detect::kReductionOp);
  EXPECT_EQ(rep.matches[0].messages, 10u);
}

// The same messages received at the last rank into one buffer in rank
// order: a gather along the chain, not taken for a scan.
TEST(ForwardedPrefix, ChainGatherIntoRankOrderIsNoScan) {
  auto rep = forwarding(5, false, true).detect("scan-forwarded-gather");
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, Kind::Scan);
}

// One value passed along by every rank is no prefix of anything.
TEST(ForwardedPrefix, OneValueForwardedIsNoScan) {
  auto rep = forwarding(4, true).detect("scan-forwarded-same");
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, Kind::Scan);
}

} // namespace
