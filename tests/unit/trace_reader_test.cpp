// trace_reader_test.cpp: the trace reader on fixture traces (written with
// the OTF2 writer API by trace_fixture_writer.cpp), whole and damaged.
// Repair from the tracer's event records: trace_repair_test.cpp.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "collectivize/trace_reader.h"
#include "collectivize_trace_format.h"
#include "evt_direct.h"
#include "trace_fixture_writer.h"
#include "trace_reader_fixture.h"

using namespace cz::trace;
using cz::trace::fixture::FixtureSpec;
using cz::trace::test::TraceReaderTest;

namespace {

TEST_F(TraceReaderTest, ReadsExactlyTheWrittenEvents) {
  FixtureSpec spec = standard();
  auto t = Trace::open(write(spec));
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_TRUE(t->problems().empty());
  ASSERT_EQ(t->rankCount(), 2);
  for (int r = 0; r < 2; r++) {
    EXPECT_TRUE(t->rankComplete(r));
    auto events = t->loadRank(r);
    ASSERT_TRUE(events) << events.error().message();
    std::vector<Event> want = expected(spec, r);
    ASSERT_EQ(events->size(), want.size());
    for (size_t i = 0; i < want.size(); i++)
      EXPECT_TRUE(events.value()[i] == want[i]) << "rank " << r << " event " << i << ": "
                                                << formatEvent(*t, events.value()[i]);
  }
}

TEST_F(TraceReaderTest, HandValues) {
  auto t = Trace::open(write(standard()));
  ASSERT_TRUE(t);
  auto r0 = t->loadRank(0);
  ASSERT_TRUE(r0);
  const Event &s = r0->at(0);
  EXPECT_EQ(s.kind, EventKind::Send);
  EXPECT_EQ(s.peer, 1u);
  EXPECT_EQ(s.peerWorld, 1u);
  EXPECT_EQ(s.tag, 7u);
  EXPECT_EQ(s.bytes, 64u);
  EXPECT_EQ(s.crc32, 0xdeadbeefu);
  EXPECT_EQ(s.prefix, 0x0706050403020100ull);
  EXPECT_EQ(s.siteKind, 0);
  EXPECT_FALSE(s.kept.has_value());
  EXPECT_FALSE(s.newComm.has_value());
  EXPECT_EQ(r0->at(9).kept, 1);
  EXPECT_EQ(r0->at(7).newComm, 2u);
  // Where the communicator was made: the creation's site and split color.
  EXPECT_EQ(r0->at(7).color, 3);
  EXPECT_EQ(r0->at(7).site, 12u);
  EXPECT_FALSE(s.color.has_value());
  EXPECT_EQ(r0->at(1).request, 5u);
  // Rank 1's receive on the split comm: comm rank 1 is world rank 0.
  auto r1 = t->loadRank(1);
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->back().comm, 2u);
  EXPECT_EQ(r1->back().peer, 1u);
  EXPECT_EQ(r1->back().peerWorld, 0u);
  EXPECT_FALSE(r1->back().address.has_value());
  EXPECT_EQ(formatEvent(*t, s),
            "rank 0  t=0.000us  send  to 1 (world 1) comm 0 tag 7 bytes 64 crc32=0xdeadbeef "
            "address=0x7ffd1000 prefix=0x0706050403020100 site=42 count=16 datatype=INT");
}

// Every attribute of CZ_TRACE_ATTRIBUTES, set to a value of its own.
template <class T>
void setDistinct(std::optional<T> &member, uint64_t &seed) {
  member = T(seed);
  seed = seed * 31 + 0x10203;
}

// The one attribute list drives the tracer's definitions, the reader, the
// dump and the fixture writer: an event carrying every attribute reads
// back equal, and written again from what was read, reads back equal again.
TEST_F(TraceReaderTest, EveryAttributeRoundTrips) {
  FixtureSpec spec = standard();
  uint64_t seed = 0x1122334455667788ull;
  Event all = spec.events[0].at(0);
#define CZ_SET_ATTRIBUTE(id, type, member, shown, description) setDistinct(all.member, seed);
  CZ_TRACE_ATTRIBUTES(CZ_SET_ATTRIBUTE)
#undef CZ_SET_ATTRIBUTE
  all.siteKind = 0;
  Event viaReturnAddress = all;
  viaReturnAddress.siteKind = 1;
  viaReturnAddress.color = -5; // an int written as UINT32
  spec.events[0].insert(spec.events[0].begin(), {all, viaReturnAddress});
  auto first = Trace::open(write(spec, "first"));
  ASSERT_TRUE(first) << first.error().message();
  auto read = first->loadRank(0);
  ASSERT_TRUE(read) << read.error().message();
  std::vector<Event> want = expected(spec, 0);
  ASSERT_EQ(read->size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT_TRUE(read.value()[i] == want[i]) << "event " << i << ": " << formatEvent(*first, read.value()[i]);

  FixtureSpec again = spec;
  again.events[0] = read.value();
  auto second = Trace::open(write(again, "second"));
  ASSERT_TRUE(second) << second.error().message();
  auto reread = second->loadRank(0);
  ASSERT_TRUE(reread);
  EXPECT_TRUE(reread.value() == read.value());

  // The dump names every attribute printed on its own.
  std::string line = formatEvent(*first, read->at(0));
#define CZ_DUMPED(id, type, member, shown, description)                                          \
  if (std::string(#shown).rfind("WITH_", 0) != 0)                                                 \
    EXPECT_NE(line.find(std::string(" ") + (std::strrchr(CZ_TRACE_ATTR_##id, ':') + 1)),           \
              std::string::npos) << #id << " not in: " << line;
  CZ_TRACE_ATTRIBUTES(CZ_DUMPED)
#undef CZ_DUMPED
  EXPECT_NE(formatEvent(*first, read->at(1)).find("site=ra:0x"), std::string::npos);
  EXPECT_NE(formatEvent(*first, read->at(1)).find("color=-5"), std::string::npos);
}

TEST_F(TraceReaderTest, Definitions) {
  auto t = Trace::open(write(standard()));
  ASSERT_TRUE(t);
  const Definitions &d = t->definitions();
  EXPECT_EQ(d.timerResolution, 1000000000u);
  ASSERT_EQ(d.locations.size(), 2u);
  EXPECT_EQ(d.locations.at(1).name, "rank 1");
  EXPECT_EQ(d.comms.at(0).members, (std::vector<uint32_t>{0, 1}));
  EXPECT_TRUE(d.comms.at(1).isSelf);
  EXPECT_EQ(d.comms.at(2).members, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(d.worldRank(1, 0, 1), 1u);
  EXPECT_EQ(d.regionName(0), "MPI_Comm_split");
  for (const char *a : {"collectivize::crc32", "collectivize::address", "collectivize::prefix",
                        "collectivize::site", "collectivize::return_address", "collectivize::count",
                        "collectivize::datatype", "collectivize::peer_world",
                        "collectivize::kept", "collectivize::new_comm"})
    EXPECT_TRUE(d.attributeByName.count(a)) << a;
  EXPECT_EQ(t->manifest().format, 1);
  EXPECT_EQ(t->manifest().ranks, 2);
  EXPECT_EQ(t->manifest().command, "./app");
}

TEST_F(TraceReaderTest, CallbackStopsAndLimit) {
  auto t = Trace::open(write(standard()));
  ASSERT_TRUE(t);
  int seen = 0;
  auto n = t->forEachEvent(0, [&](const Event &) { return ++seen < 3; });
  ASSERT_TRUE(n);
  EXPECT_EQ(n.value(), 3u);
  ReadOptions o;
  o.maxEvents = 5;
  auto v = t->loadRank(1, o);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->size(), 5u);
  EXPECT_FALSE(t->loadRank(2));
  EXPECT_FALSE(t->forEachEvent(-1, [](const Event &) { return true; }));
}

TEST_F(TraceReaderTest, ManyChunks) {
  FixtureSpec spec = standard();
  spec.eventChunkSize = 256 * 1024;
  fixture::addBulkMessages(spec, 20000);
  auto t = Trace::open(write(spec));
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_TRUE(t->problems().empty());
  auto v = t->loadRank(0);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->size(), spec.events[0].size());
  EXPECT_TRUE(v->back() == expected(spec, 0).back());
}

// The direct reader of event files (evt_direct.h) and OTF2's reader hand
// out the same events: whole files of many chunks, cut files, and early
// stops.
TEST_F(TraceReaderTest, DirectReaderAgreesWithOtf2) {
  FixtureSpec spec = standard();
  spec.eventChunkSize = 256 * 1024;
  fixture::addBulkMessages(spec, 20000);
  std::string dir = write(spec);
  ReadOptions viaOtf2;
  viaOtf2.otf2Only = true;
  for (off_t cut : {off_t(-1), off_t(300000), off_t(600000)}) {
    std::string copy = root_ + "/agree" + std::to_string(cut);
    std::string cmd = "cp -r '" + dir + "' '" + copy + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    if (cut >= 0) truncateFile(copy + "/traces/0.evt", cut);
    auto t = Trace::open(copy);
    ASSERT_TRUE(t) << t.error().message();
    for (int r = 0; r < t->rankCount(); r++) {
      auto direct = t->loadRank(r), otf2 = t->loadRank(r, viaOtf2);
      ASSERT_TRUE(direct && otf2);
      ASSERT_EQ(direct->size(), otf2->size()) << "cut " << cut << " rank " << r;
      for (size_t k = 0; k < direct->size(); k++)
        ASSERT_TRUE(direct.value()[k] == otf2.value()[k]) << "cut " << cut << " event " << k;
    }
    ReadOptions few;
    few.maxEvents = 7;
    EXPECT_EQ(t->loadRank(1, few)->size(), 7u);
  }
}

// Every record kind and attribute type the tracer writes is read directly
// (a hand-over to OTF2 would give the same events, only slower).
TEST_F(TraceReaderTest, DirectReaderReadsEveryTracerRecord) {
  FixtureSpec spec = standard();
  std::string dir = write(spec);
  for (int r = 0; r < 2; r++) {
    uint64_t seen = 0;
    auto count = [](void *n, Event &, const detail::DirectAttribute *, size_t) {
      ++*static_cast<uint64_t *>(n);
      return true;
    };
    detail::DirectRead d = detail::readEventsDirect(dir + "/traces/" + std::to_string(r) + ".evt",
                                                    spec.eventChunkSize, UINT64_MAX, count, &seen);
    EXPECT_TRUE(d.complete) << "rank " << r << " handed over after " << d.handedOut;
    EXPECT_EQ(seen, spec.events[r].size());
  }
}

// An attribute type the direct reader does not read (a double of another
// tool) midway through a file: it hands the rest to OTF2's reader, which
// skips what was handed out already; the events are OTF2's, each once.
TEST_F(TraceReaderTest, DirectReaderHandsOverToOtf2) {
  FixtureSpec spec = standard();
  spec.eventChunkSize = 256 * 1024;
  fixture::addBulkMessages(spec, 20000);
  spec.foreignAttribute = {{0, 15000}, {1, 3}};
  auto t = Trace::open(write(spec));
  ASSERT_TRUE(t) << t.error().message();
  ReadOptions viaOtf2;
  viaOtf2.otf2Only = true;
  for (int r = 0; r < 2; r++) {
    auto mixed = t->loadRank(r), otf2 = t->loadRank(r, viaOtf2);
    ASSERT_TRUE(mixed && otf2);
    ASSERT_EQ(mixed->size(), spec.events[r].size());
    ASSERT_EQ(mixed->size(), otf2->size());
    for (size_t k = 0; k < mixed->size(); k++)
      ASSERT_TRUE(mixed.value()[k] == otf2.value()[k]) << "rank " << r << " event " << k;
  }
  int seen = 0; // stopping early after the hand-over
  auto n = t->forEachEvent(0, [&](const Event &) { return ++seen < 15005; });
  ASSERT_TRUE(n);
  EXPECT_EQ(n.value(), 15005u);
}

// Truncated event files: listed as problems, the whole records before the cut
// are read, and nothing hangs (OTF2 alone loops forever on several of these).
TEST_F(TraceReaderTest, TruncatedEventFile) {
  FixtureSpec spec = standard();
  spec.eventChunkSize = 256 * 1024;
  fixture::addBulkMessages(spec, 20000);
  std::string dir = write(spec);
  std::string evt = dir + "/traces/0.evt";
  off_t full = sizeOf(evt);
  std::vector<Event> want = expected(spec, 0);
  int i = 0;
  for (off_t cut : {off_t(0), off_t(10), off_t(1000), off_t(262144), off_t(262200),
                    off_t(300000), off_t(524288), off_t(600000), full - 2, full - 1}) {
    std::string copy = root_ + "/cut" + std::to_string(i++);
    std::string cmd = "cp -r '" + dir + "' '" + copy + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    truncateFile(copy + "/traces/0.evt", cut);
    auto t = Trace::open(copy);
    ASSERT_TRUE(t) << "cut " << cut << ": " << t.error().message();
    auto v = t->loadRank(0);
    ASSERT_TRUE(v) << "cut " << cut << ": " << v.error().message();
    if (cut == full - 1) { // only the final END_OF_BUFFER byte lost: still whole
      EXPECT_EQ(v->size(), want.size());
      continue;
    }
    EXPECT_FALSE(t->rankComplete(0)) << "cut " << cut;
    EXPECT_TRUE(mentions(*t, 0, "truncated")) << "cut " << cut;
    // Cut only the end-of-file mark: every record is still there.
    if (cut == full - 2) EXPECT_EQ(v->size(), want.size());
    else EXPECT_LT(v->size(), want.size()) << "cut " << cut;
    for (size_t k = 0; k < v->size(); k++)
      ASSERT_TRUE(v.value()[k] == want[k]) << "cut " << cut << " event " << k;
    EXPECT_TRUE(t->rankComplete(1));
    auto other = t->loadRank(1);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->size(), spec.events[1].size());
  }
}

TEST_F(TraceReaderTest, MissingDoneMarker) {
  FixtureSpec spec = standard();
  spec.done = {true, false};
  auto t = Trace::open(write(spec));
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->rankComplete(0));
  EXPECT_FALSE(t->rankComplete(1));
  EXPECT_TRUE(mentions(*t, 1, "rank-1.done"));
  auto v = t->loadRank(1);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->size(), spec.events[1].size());
}

TEST_F(TraceReaderTest, MissingEventFile) {
  std::string dir = write(standard());
  ASSERT_EQ(unlink((dir + "/traces/1.evt").c_str()), 0);
  auto t = Trace::open(dir);
  ASSERT_TRUE(t);
  EXPECT_TRUE(mentions(*t, 1, "missing"));
  EXPECT_FALSE(t->rankComplete(1));
  auto v = t->loadRank(1);
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->empty());
}

TEST_F(TraceReaderTest, MissingAnchor) {
  std::string dir = write(standard());
  ASSERT_EQ(unlink((dir + "/traces.otf2").c_str()), 0);
  auto t = Trace::open(dir);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().file.find("traces.otf2"), std::string::npos);
  EXPECT_NE(t.error().message().find("anchor file is missing"), std::string::npos);
}

TEST_F(TraceReaderTest, GarbageFiles) {
  std::mt19937 rng(7);
  auto garbage = [&](const std::string &path, size_t n) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    for (size_t i = 0; i < n; i++) out.put(char((rng() & 0xff) | 0x10));
  };
  std::string dir = write(standard());
  garbage(dir + "/traces/0.evt", 5000);
  auto t = Trace::open(dir);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().file.find("traces/0.evt"), std::string::npos);
  EXPECT_EQ(t.error().offset, 0);
  EXPECT_NE(t.error().reason.find("not an OTF2 file"), std::string::npos) << t.error().message();

  std::string dir2 = write(standard(), "trace2");
  garbage(dir2 + "/traces.otf2", 300);
  auto t2 = Trace::open(dir2);
  ASSERT_FALSE(t2);
  EXPECT_NE(t2.error().file.find("traces.otf2"), std::string::npos) << t2.error().message();

  std::string dir3 = write(standard(), "trace3");
  garbage(dir3 + "/traces.def", 3000);
  auto t3 = Trace::open(dir3);
  ASSERT_FALSE(t3);
  EXPECT_NE(t3.error().file.find("traces.def"), std::string::npos) << t3.error().message();

  std::string dir4 = write(standard(), "trace4");
  garbage(dir4 + "/collectivize-trace.txt", 100);
  auto t4 = Trace::open(dir4);
  ASSERT_FALSE(t4);
  EXPECT_NE(t4.error().file.find("collectivize-trace.txt"), std::string::npos);
}

TEST_F(TraceReaderTest, NewerFormatRefused) {
  std::string dir = write(standard());
  std::ofstream(dir + "/collectivize-trace.txt") << "ranks 2\nformat 99\n";
  auto t = Trace::open(dir);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().offset, 8);
  EXPECT_NE(t.error().reason.find("newer than this reader"), std::string::npos);
}

TEST_F(TraceReaderTest, NotATrace) {
  auto missing = Trace::open(root_ + "/does-not-exist");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("no such trace directory"), std::string::npos);
  auto empty = Trace::open(root_);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message().find("not a Collectivize trace"), std::string::npos);
  std::ofstream(root_ + "/file") << "x";
  auto file = Trace::open(root_ + "/file");
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().message().find("not a directory"), std::string::npos);
}

} // namespace

// A rank's clock against rank 0's: its ClockOffset records interpolated
// linearly between them, the first or last one outside them.
TEST(ClockOffsets, InterpolatedOntoRankZerosClock) {
  LocationDef l;
  EXPECT_EQ(l.toRootClock(12345), 12345u); // no records: the time as it is
  l.clockOffsets = {{1000, -500, 1.0}, {3000, -300, 1.0}};
  EXPECT_EQ(l.toRootClock(0), 0u);          // before the first: its offset, not below 0
  EXPECT_EQ(l.toRootClock(1000), 500u);
  EXPECT_EQ(l.toRootClock(2000), 1600u);    // halfway: -400
  EXPECT_EQ(l.toRootClock(3000), 2700u);
  EXPECT_EQ(l.toRootClock(10000), 9700u);   // after the last: its offset
  l.clockOffsets = {{1000, 250, 0}};
  EXPECT_EQ(l.toRootClock(10), 260u);
}
