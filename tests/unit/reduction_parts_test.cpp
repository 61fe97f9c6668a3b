// Reductions on parts of a communicator (reduction.cpp, analyzeParts):
// rows of a process grid that each sum by recursive doubling on
// MPI_COMM_WORLD form one round in which no rank hears from every rank;
// each part linked by the round's messages is read as a group of its own.
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz_test::EventKind;
using cz_test::Script;

// p ranks in rows of `row` (a power of two): each row's recursive
// doubling of one 8-byte value, `rounds` times, one send buffer per rank
// (0x100) and one receive buffer (0x200); every payload differs. Only
// the first `active` ranks take part (all when 0).
cz::detect::MessageTable rowSums(const std::string &name, int p, int row, int rounds,
                                 int active = 0) {
  if (!active) active = p;
  Script s(p);
  int bits = 0;
  while ((1 << bits) < row) bits++;
  uint32_t crc = 1;
  for (int round = 0; round < rounds; round++)
    for (int step = 1; step <= bits; step++) {
      // Both partners send, then both receive (Irecv posted, Send, Wait).
      for (int me = 0; me < active; me++) {
        int partner = me / row * row + ((me % row) ^ (1 << (bits - step)));
        s.add(me, EventKind::Send, partner, uint32_t(step), 8, crc++, 0x100);
        s.spec.events[size_t(me)].back().siteKind = 0;
        s.spec.events[size_t(me)].back().site = 31;
      }
      for (int me = 0; me < active; me++) {
        int partner = me / row * row + ((me % row) ^ (1 << (bits - step)));
        s.add(me, EventKind::Recv, partner, uint32_t(step), 8, 0, 0x200);
        s.spec.events[size_t(me)].back().siteKind = 0;
        s.spec.events[size_t(me)].back().site = 32;
      }
    }
  return s.table(name);
}

TEST(ReductionParts, RowsThatSumAtOnceAreEachAnAllreduceOnASubset) {
  auto rep = cz::detect::detect(rowSums("parts-rows", 8, 4, 3));
  size_t rows = 0;
  for (const auto &m : rep.matches) {
    ASSERT_EQ(m.kind, Kind::Allreduce);
    EXPECT_TRUE(m.subset);
    EXPECT_EQ(m.ranks.size(), 4u);
    EXPECT_EQ(m.splitColors, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(m.instances, 3u);
    rows++;
  }
  EXPECT_EQ(rows, 2u);
}

TEST(ReductionParts, OneRowIsTheWholeGroup) {
  auto rep = cz::detect::detect(rowSums("parts-one-row", 4, 4, 3));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, Kind::Allreduce);
  EXPECT_FALSE(rep.matches[0].subset);
}

TEST(ReductionParts, PartsOfTwoAreLeftAlone) {
  // Pairs swapping a value: any swap has an allreduce's shape.
  auto rep = cz::detect::detect(rowSums("parts-pairs", 8, 2, 3));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, Kind::Allreduce) << m.ranks.size();
}

TEST(ReductionParts, OnePartAmongSilentMembersIsLeftAlone) {
  // Rows that do not partition the communicator are the chance shape of a
  // halo or a relay, not a grid's reductions.
  auto rep = cz::detect::detect(rowSums("parts-one-of-two", 8, 4, 3, 4));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, Kind::Allreduce) << m.ranks.size();
}

TEST(ReductionParts, ChainsOnPartsAreLeftAlone) {
  // Each row of 4 passes one message down a chain to its last rank (a
  // wavefront's pipeline, or a reduce: the shape alone cannot tell).
  Script s(8);
  uint32_t crc = 1;
  for (int round = 0; round < 3; round++)
    for (int row = 0; row < 2; row++)
      for (int k = 0; k < 3; k++) s.message(row * 4 + k, row * 4 + k + 1, 8, crc++, 0x100, 0x200, 7);
  auto rep = cz::detect::detect(s.table("parts-chains"));
  for (const auto &m : rep.matches) EXPECT_FALSE(m.subset) << cz::detect::kindName(m.kind);
}

} // namespace
