// symbolize_test.cpp: file addresses -> function and line, on a real binary
// whose call sits in a helper that the compiler inlined in pieces
// (Inputs/inlined_in_pieces.c, built by CMake with -O2 -g and
// AddressSanitizer). binutils 2.40's addr2line names `main` there; the
// source's function is `smooth`.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "collectivize/symbolize.h"

namespace {

// The source line that holds the marker.
int lineOf(const std::string &file, const std::string &marker) {
  std::ifstream in(file);
  std::string l;
  for (int n = 1; std::getline(in, l); n++)
    if (l.find(marker) != std::string::npos) return n;
  return -1;
}

TEST(Symbolize, NamesTheInlinedFunctionAndItsLine) {
  FILE *p = popen(CZ_INLINED_FIXTURE " 64", "r");
  ASSERT_NE(p, nullptr);
  unsigned long addr = 0;
  int value = 0;
  ASSERT_EQ(std::fscanf(p, "%lx %d", &addr, &value), 2) << "the fixture printed no address";
  ASSERT_EQ(pclose(p), 0);
  std::vector<std::pair<std::string, std::string>> got;
  std::string tool;
  ASSERT_TRUE(cz::detect::locateFileAddresses(CZ_INLINED_FIXTURE, {addr}, got, &tool));
  ASSERT_EQ(got.size(), 1u);
  int line = lineOf(CZ_INLINED_SOURCE, "/* CALL */");
  ASSERT_GT(line, 0);
  EXPECT_EQ(got[0].first, "smooth") << "with " << tool;
  // The compilation directory may stand in the path (build/../tests/...).
  std::string want = "/Inputs/inlined_in_pieces.c:" + std::to_string(line);
  const std::string &at = got[0].second;
  EXPECT_TRUE(at.size() >= want.size() && at.compare(at.size() - want.size(), want.size(), want) == 0)
      << at << " with " << tool;
}

TEST(Symbolize, ClonesAreNamedAsInTheSource) {
  using cz::detect::withoutCloneSuffix;
  EXPECT_EQ(withoutCloneSuffix("broadcast_all.constprop.0"), "broadcast_all");
  EXPECT_EQ(withoutCloneSuffix("f.isra.0.constprop.1"), "f");
  EXPECT_EQ(withoutCloneSuffix("f.cold"), "f");
  EXPECT_EQ(withoutCloneSuffix("ns::K::g(int) [clone .constprop.0]"), "ns::K::g(int)");
  EXPECT_EQ(withoutCloneSuffix("ns::K::g(int)"), "ns::K::g(int)");
  EXPECT_EQ(withoutCloneSuffix("??"), "??");
}

TEST(Symbolize, AddressesWithoutDebugInformationHaveNoLine) {
  std::vector<std::pair<std::string, std::string>> got;
  // Address 0 lies in no function of the fixture.
  ASSERT_TRUE(cz::detect::locateFileAddresses(CZ_INLINED_FIXTURE, {0}, got));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].second.compare(0, 2, "??"), 0) << got[0].second;
}

TEST(Symbolize, AnObjectThatIsNoBinaryFails) {
  std::vector<std::pair<std::string, std::string>> got;
  EXPECT_FALSE(cz::detect::locateFileAddresses(CZ_INLINED_SOURCE, {0x1000}, got));
}

} // namespace
