// detect_script.h: hand-built traces for the detector's unit tests,
// written with the fixture writer and read back through the real reader.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "collectivize/messages.h"
#include "trace_fixture_writer.h"

namespace cz_test {

using cz::trace::Event;
using cz::trace::EventKind;

// One rank's events, timestamps from a shared clock so causality holds.
struct Script {
  cz::trace::fixture::FixtureSpec spec;
  uint64_t clock = 1000;
  explicit Script(int ranks) {
    spec.ranks = ranks;
    spec.events.resize(size_t(ranks));
  }
  Event &add(int rank, EventKind kind, int peer, uint32_t tag, uint64_t bytes, uint32_t crc,
             uint64_t address) {
    Event e;
    e.kind = kind;
    e.timestamp = clock += 10;
    e.peer = uint32_t(peer);
    e.peerWorld = uint32_t(peer);
    e.comm = 0;
    e.tag = tag;
    e.bytes = bytes;
    if (kind == EventKind::Send || kind == EventKind::Isend) e.crc32 = crc;
    e.address = address;
    e.count = uint32_t(bytes);
    e.datatype = 1; // BYTE
    spec.events[size_t(rank)].push_back(e);
    return spec.events[size_t(rank)].back();
  }
  // A blocking message from src to dst.
  void message(int src, int dst, uint64_t bytes, uint32_t crc, uint64_t from, uint64_t to,
               uint32_t tag = 0) {
    add(src, EventKind::Send, dst, tag, bytes, crc, from);
    add(dst, EventKind::Recv, src, tag, bytes, 0, to);
  }
  cz::detect::MessageTable table(const std::string &name) {
    std::string dir = std::string(::testing::TempDir()) + "cz-detect-" + name;
    std::filesystem::remove_all(dir);
    std::string err = cz::trace::fixture::writeFixture(dir, spec);
    EXPECT_EQ(err, "");
    auto trace = cz::trace::Trace::open(dir);
    EXPECT_TRUE(trace.ok()) << trace.error().message();
    auto t = cz::detect::matchMessages(*trace);
    EXPECT_TRUE(t.ok());
    return std::move(t.value());
  }
};

} // namespace cz_test
