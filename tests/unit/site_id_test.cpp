// Site ids: FNV-1a 64 known values, and ids that change with exactly the
// fields they are defined over (SITE_DATABASE.md, "Ids").
#include <gtest/gtest.h>

#include "collectivize/clang/MpiCalls.h"
#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteId.h"

using namespace cz::clangtools;

TEST(SiteId, Fnv1a64KnownValues) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(SiteId, PinnedAndStable) {
  SiteKey k{"src/ring.c", 0x0123456789abcdefull, 13, 5, "MPI_Send", "call"};
  // Pinned: ids must never change for the same key (traces and databases
  // from other machines and older builds refer to them).
  EXPECT_EQ(siteId(k), 13596326773830363674ull); // also computed independently in Python
  EXPECT_EQ(siteId(k), siteId(SiteKey(k)));
}

TEST(SiteId, EveryFieldMatters) {
  SiteKey k{"src/ring.c", 1, 13, 5, "MPI_Send", "call"};
  uint64_t base = siteId(k);
  SiteKey f = k;
  f.file = "src/ring2.c";
  EXPECT_NE(siteId(f), base);
  f = k;
  f.fileHash = 2;
  EXPECT_NE(siteId(f), base);
  f = k;
  f.line = 14;
  EXPECT_NE(siteId(f), base);
  f = k;
  f.column = 6;
  EXPECT_NE(siteId(f), base);
  f = k;
  f.callee = "MPI_Recv";
  EXPECT_NE(siteId(f), base);
  f = k;
  f.anchor = "macro-expansion";
  EXPECT_NE(siteId(f), base);
  // Fields are separated: moving a character between fields changes the id.
  SiteKey a{"ab", 1, 1, 1, "c", "call"}, b{"a", 1, 1, 1, "bc", "call"};
  EXPECT_NE(siteId(a), siteId(b));
}

TEST(SiteId, Hex16) {
  EXPECT_EQ(hex16(0), "0000000000000000");
  EXPECT_EQ(hex16(0xdeadbeefull), "00000000deadbeef");
}

TEST(MpiCalls, Classification) {
  ASSERT_NE(classifyMpiCall("MPI_Send"), nullptr);
  EXPECT_EQ(classifyMpiCall("MPI_Send")->kind, CallKind::PointToPoint);
  EXPECT_TRUE(classifyMpiCall("MPI_Send")->traced);
  EXPECT_EQ(classifyMpiCall("MPI_Waitall")->kind, CallKind::Completion);
  EXPECT_FALSE(classifyMpiCall("MPI_Waitall")->traced);
  EXPECT_EQ(classifyMpiCall("MPI_Alltoall")->kind, CallKind::Collective);
  EXPECT_EQ(classifyMpiCall("MPI_Comm_split")->kind, CallKind::Communicator);
  EXPECT_EQ(classifyMpiCall("MPI_Comm_rank"), nullptr);
  EXPECT_EQ(classifyMpiCall("PMPI_Send"), nullptr);
  EXPECT_EQ(classifyMpiCall("MPI_Sendx"), nullptr);
  EXPECT_STREQ(callKindName(CallKind::PointToPoint), "p2p");
}

TEST(ProjectRoot, RelativePaths) {
  std::string rel;
  EXPECT_TRUE(relativeToRoot("/a/b", "/a/b/c/d.c", rel));
  EXPECT_EQ(rel, "c/d.c");
  EXPECT_TRUE(relativeToRoot("/a/b/", "/a/b/d.c", rel));
  EXPECT_EQ(rel, "d.c");
  EXPECT_FALSE(relativeToRoot("/a/b", "/a/bc/d.c", rel));
  EXPECT_FALSE(relativeToRoot("/a/b", "/a/b", rel));
  EXPECT_FALSE(relativeToRoot("/a/b", "/usr/include/mpi.h", rel));
  EXPECT_TRUE(relativeToRoot("/", "/x/y.c", rel));
  EXPECT_EQ(rel, "x/y.c");
}
