// trace_reader_fixture.h: what the trace reader's tests share
// (trace_reader_test.cpp, trace_repair_test.cpp): a fresh directory per
// case, fixture traces written into it (trace_fixture_writer.cpp), and a
// time bound on every case.
#pragma once

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "collectivize/trace_reader.h"
#include "trace_fixture_writer.h"

namespace cz::trace::test {

using cz::trace::fixture::FixtureSpec;

class TraceReaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cz-trace-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    start_ = std::chrono::steady_clock::now();
  }
  void TearDown() override {
    // Every case, damaged input included, must finish quickly: 10 s, times
    // CZ_TIMEOUT_SCALE in a sanitized build (cmake/Sanitizers.cmake), whose
    // reads run several times slower (TruncatedEventFile took 10.5 s under
    // ASan on a loaded machine).
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    EXPECT_LT(s, 10.0 * CZ_TIMEOUT_SCALE) << "reading took too long";
    std::string cmd = "rm -rf '" + root_ + "'";
    (void)std::system(cmd.c_str());
  }
  std::string write(const FixtureSpec &spec, const std::string &name = "trace") {
    std::string dir = root_ + "/" + name;
    std::string err = fixture::writeFixture(dir, spec);
    EXPECT_EQ(err, "");
    return dir;
  }
  static FixtureSpec standard() {
    FixtureSpec s = fixture::standardSpec();
    s.done.assign(s.ranks, true);
    return s;
  }
  // What the reader must return for rank r of spec: the written events with
  // rank set and peer world ranks translated through the comm groups.
  static std::vector<Event> expected(const FixtureSpec &spec, int r) {
    std::vector<Event> out = spec.events[r];
    for (Event &e : out) {
      e.rank = r;
      if (e.peer && !e.peerWorld) {
        if (e.comm == 0) e.peerWorld = *e.peer;
        for (const auto &c : spec.comms)
          if (c.ref == e.comm) e.peerWorld = c.members.at(*e.peer);
      }
    }
    return out;
  }
  static bool mentions(const Trace &t, int rank, const std::string &word) {
    for (const Problem &p : t.problems())
      if (p.rank == rank && p.message.find(word) != std::string::npos) return true;
    return false;
  }
  static void truncateFile(const std::string &path, off_t size) {
    ASSERT_EQ(truncate(path.c_str(), size), 0) << path;
  }
  static off_t sizeOf(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
  }

  std::string root_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace cz::trace::test
