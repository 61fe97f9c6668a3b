// rotating_chain_test.cpp: findRotatingChains (rotating_chain.cpp) on
// hand-built traces of one int per message: a linear-pipeline reduce called
// for root 0, 1, ..., P-1 through one send and one receive. Each call is an
// instance whose root is its chain's end; a ring of values passed on
// unchanged, one root called again and again, and a root that sends while
// its chain runs are not. The per-root matches become one whose root
// varies (root_families.cpp).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <set>
#include <vector>

#include "collectivize_trace_format.h"
#include "detect_internal.h"
#include "detect_script.h"
#include "root_families.h"

namespace cz::detect::detail {
namespace {

using cz::trace::EventKind;
using cz_test::Script;

constexpr int kRanks = 4;

// Rank q's own value in the call for `root`: distinct for every pair.
int32_t own(int q, int root) { return 5 + 3 * q + 17 * root + q * root; }

struct Ring {
  Script s{kRanks};
  void message(int src, int dst, int32_t v, uint64_t bytes = 4) {
    auto &e = s.add(src, EventKind::Send, dst, 0, bytes, uint32_t(crc32(0, reinterpret_cast<const Bytef *>(&v), 4)),
                    0x1000 + uint64_t(src) * 0x100);
    e.count = uint32_t(bytes / 4);
    e.datatype = CZ_TRACE_TYPE_INT;
    uint64_t prefix = 0;
    std::memcpy(&prefix, &v, 4);
    e.prefix = prefix;
    auto &r = s.add(dst, EventKind::Recv, src, 0, bytes, 0, 0x2000 + uint64_t(dst) * 0x100);
    r.count = uint32_t(bytes / 4);
    r.datatype = CZ_TRACE_TYPE_INT;
  }
  // One call: root - 1 starts, each rank down to the root adds its own
  // value (or passes on what it received, `forward`).
  void call(int root, bool forward = false) {
    int start = (root + kRanks - 1) % kRanks;
    int32_t v = own(start, root);
    for (int q = start; q != root; q = (q + kRanks - 1) % kRanks) {
      int next = (q + kRanks - 1) % kRanks;
      message(q, next, v);
      if (!forward && next != root) v += own(next, root);
    }
  }
  std::vector<Instance> find(const std::string &name) {
    MessageTable t = s.table(name);
    DetectOptions o;
    std::vector<uint8_t> claimed(t.messages.size(), 0);
    std::vector<Instance> out;
    findRotatingChains(t, usableMessages(t, o), claimed, out);
    return out;
  }
};

TEST(RotatingChain, EachCallIsAReduceEndingAtItsRoot) {
  Ring r;
  for (int root = 0; root < kRanks; root++) r.call(root);
  std::vector<Instance> found = r.find("rotating-sum");
  ASSERT_EQ(found.size(), size_t(kRanks));
  for (int root = 0; root < kRanks; root++) {
    EXPECT_EQ(found[size_t(root)].kind, Kind::Reduce);
    EXPECT_EQ(found[size_t(root)].rootWorld, uint32_t(root));
    EXPECT_EQ(found[size_t(root)].messages.size(), size_t(kRanks - 1));
    EXPECT_EQ(found[size_t(root)].unproven, uint32_t(kReductionOp)); // own values untraced
  }
  EXPECT_NE(found[0].note.find("MPI_SUM"), std::string::npos);
  EXPECT_NE(found[0].note.find("in call order (world ranks): 0, 1, 2, 3"), std::string::npos);
}

// The same messages, every value passed on as it came: moved, not combined.
TEST(RotatingChain, ValuesPassedOnUnchangedAreNoReduce) {
  Ring r;
  for (int root = 0; root < kRanks; root++) r.call(root, true);
  EXPECT_TRUE(r.find("rotating-forward").empty());
}

// One root, called again and again: the reduction rule's pair rounds.
TEST(RotatingChain, OneRootIsLeftToTheReductionRule) {
  Ring r;
  for (int k = 0; k < 3; k++) r.call(0);
  EXPECT_TRUE(r.find("rotating-one-root").empty());
}

// The root of call 1 passes something else to the start through the same
// send while its chain runs: a shift's step, not a reduce.
TEST(RotatingChain, ARootSendingWhileItsChainRunsIsNoReduce) {
  Ring r;
  r.call(0);
  r.message(1, 0, 99, 8); // call 1's root, before its chain (0 -> 3 -> 2 -> 1) starts: allowed
  int32_t v = own(0, 1);
  r.message(0, 3, v);
  r.message(1, 0, 98, 8); // while it runs
  r.message(3, 2, v += own(3, 1));
  r.message(2, 1, v + own(2, 1));
  r.call(2);
  r.call(3);
  EXPECT_TRUE(r.find("rotating-root-sends").empty());
}


// Reduces at one code whose roots differ are one match whose root varies
// (root_families.cpp), unless their evidence differs.
Match reduceAt(uint32_t root, uint32_t unproven) {
  Match m;
  m.kind = Kind::Reduce;
  m.ranks = {0, 1, 2, 3};
  m.rootWorld = root;
  m.root = int(root);
  m.unproven = unproven;
  m.instances = 1;
  m.messages = 3;
  m.sites = {SiteUse{11, 1, true}, SiteUse{12, 1, false}};
  return m;
}

TEST(RotatingChain, ReducesOfOneCodeWithSeveralRootsAreOneMatch) {
  std::vector<Match> ms = {reduceAt(0, kReductionOp), reduceAt(1, kReductionOp), reduceAt(2, kReductionOp)};
  std::vector<Match *> all = {&ms[0], &ms[1], &ms[2]};
  std::set<Match *> merged;
  std::vector<Match> out;
  mergeRootFamilies(all, merged, out);
  ASSERT_EQ(out.size(), size_t(1));
  EXPECT_EQ(merged.size(), size_t(3));
  EXPECT_EQ(out[0].kind, Kind::Reduce);
  EXPECT_EQ(out[0].roots, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(out[0].rootWorld, kNone);
  EXPECT_EQ(out[0].instances, 3u);
  EXPECT_EQ(out[0].unproven, uint32_t(kReductionOp));
}

TEST(RotatingChain, ReducesWhoseEvidenceDiffersStayApart) {
  std::vector<Match> ms = {reduceAt(0, 0), reduceAt(1, kReductionOp)};
  std::vector<Match *> all = {&ms[0], &ms[1]};
  std::set<Match *> merged;
  std::vector<Match> out;
  mergeRootFamilies(all, merged, out);
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(merged.empty());
}

} // namespace
} // namespace cz::detect::detail
