// A chain whose values pin no operation is no reduce when a member only
// passes on bytes it received (reduction.cpp, forwardsOnly). Ring
// broadcasts of rotating roots (SUMMA's panels along a row, the Parallel
// Research Kernels' MPI1 DGEMM): numbered per pair without tags, rank 2's
// forwards of root 1's panels and its own panels to rank 0 fall into the
// rounds of rank 0's forwards of root 2's panels, and 2 -> 0 -> 1 then
// reads as a chain of changing values ending at rank 1.
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz_test::Script;

// Three ranks in a ring; bcast(root): root -> root+1 -> root+2, tag root,
// from and into one panel buffer per rank (0x1000 + rank) that the
// forwarder sends on unchanged. Per iteration root 0 sends 3 wide panels,
// root 1 `fromOne` narrow ones and root 2 `fromTwo` narrow ones; a panel's
// data depends on its position only, so it repeats every iteration.
cz::detect::MessageTable ringPanels(const std::string &name, int fromOne, int fromTwo,
                                    int iterations) {
  Script s(3);
  auto bcast = [&](int root, uint64_t bytes, uint32_t crc) {
    int next = (root + 1) % 3, last = (root + 2) % 3;
    s.message(root, next, bytes, crc, 0x1000 + uint64_t(root), 0x1000 + uint64_t(next),
              uint32_t(root));
    s.message(next, last, bytes, crc, 0x1000 + uint64_t(next), 0x1000 + uint64_t(last),
              uint32_t(root));
  };
  for (int it = 0; it < iterations; it++) {
    uint32_t panel = 1;
    for (int k = 0; k < 3; k++) bcast(0, 2304, 0xa000 + panel++);
    for (int k = 0; k < fromOne; k++) bcast(1, 1152, 0xb000 + panel++);
    for (int k = 0; k < fromTwo; k++) bcast(2, 1152, 0xc000 + panel++);
  }
  return s.table(name);
}

TEST(ReductionForwards, RingBroadcastsOfRotatingRootsAreNoReduce) {
  auto rep = cz::detect::detect(ringPanels("ring-panels", 4, 12, 3));
  size_t bcastMessages = 0;
  for (const auto &m : rep.matches) {
    EXPECT_NE(m.kind, Kind::Reduce) << "a chain of forwards read as a reduce, root " << m.root;
    if (m.kind == Kind::Bcast) bcastMessages += m.messages;
  }
  // Every message is a broadcast's: 2 per panel, 19 panels, 3 iterations.
  EXPECT_EQ(bcastMessages, 2u * 19 * 3);
}

} // namespace
