// trace_reader_test.cpp: the trace reader on fixture traces (written with
// the OTF2 writer API by trace_fixture_writer.cpp), whole and damaged.
#include <gtest/gtest.h>
#include <zlib.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "collectivize/trace_reader.h"
#include "collectivize_trace_format.h"
#include "event_log.h"
#include "evt_direct.h"
#include "trace_fixture_writer.h"

using namespace cz::trace;
using cz::trace::fixture::FixtureSpec;

namespace {

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

// ---- repair from the tracer's event records (rank-N.log + rank-N.ring) -------

namespace {

czt_record sendRecord(uint32_t i) {
  czt_record r{};
  r.t = 1000 + i;
  r.tag = i;
  r.peer = 0;
  r.bytes = 8;
  r.flags = CZT_REC_HASHED;
  r.kind = CZT_REC_SEND;
  return r;
}

void writeLog(const std::string &path, const std::vector<czt_record> &records,
              uint32_t clock = CZT_CLOCK_MONOTONIC) {
  czt_log_header h{};
  h.magic = CZT_LOG_MAGIC;
  h.version = CZT_LOG_VERSION;
  h.record_bytes = sizeof(czt_record);
  h.clock = clock;
  std::vector<char> block(CZT_LOG_HEADER_BYTES);
  std::memcpy(block.data(), &h, sizeof h);
  std::ofstream out(path, std::ios::binary);
  out.write(block.data(), std::streamsize(block.size()));
  out.write(reinterpret_cast<const char *>(records.data()),
            std::streamsize(records.size() * sizeof(czt_record)));
}

// A ring of two halves of `half` records; halves[k] = {base, records}.
void writeRing(const std::string &path, uint32_t half,
               const std::vector<std::pair<uint64_t, std::vector<czt_record>>> &halves,
               const czt_ring_header *clock = nullptr) {
  std::vector<unsigned char> bytes(CZT_RING_HEADER_BYTES + 2 * size_t(half) * sizeof(czt_record));
  czt_ring_header h = clock ? *clock : czt_ring_header{};
  h.magic = CZT_LOG_MAGIC;
  h.version = CZT_LOG_VERSION;
  h.record_bytes = sizeof(czt_record);
  h.half_records = half;
  h.half_base[0] = h.half_base[1] = CZT_RING_EMPTY;
  for (size_t k = 0; k < halves.size(); k++) {
    h.half_base[k] = halves[k].first;
    // An empty half has no data() to copy from (memcpy from null is UB).
    if (!halves[k].second.empty())
      std::memcpy(&bytes[CZT_RING_HEADER_BYTES + k * half * sizeof(czt_record)],
                  halves[k].second.data(), halves[k].second.size() * sizeof(czt_record));
  }
  std::memcpy(bytes.data(), &h, sizeof h);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<czt_record> records(uint32_t from, uint32_t to) {
  std::vector<czt_record> v;
  for (uint32_t i = from; i < to; i++) v.push_back(sendRecord(i));
  return v;
}

} // namespace

class RepairFromRecordsTest : public TraceReaderTest {
protected:
  std::string killedRun(const std::string &name = "killed") {
    std::string dir = root_ + "/" + name;
    EXPECT_EQ(mkdir(dir.c_str(), 0777), 0);
    std::ofstream(dir + "/collectivize-trace.txt") << "format 1\nranks 1\nstarted 0\n";
    return dir;
  }
  // Tags of rank 0's events after repair (they number the records).
  std::vector<uint32_t> repairedTags(const std::string &dir, uint64_t *reported) {
    auto rep = repair(dir);
    EXPECT_TRUE(rep) << (rep ? "" : rep.error().message());
    if (!rep) return {};
    *reported = rep->ranks.at(0).events;
    EXPECT_EQ(sizeOf(dir + "/rank-0.log"), -1);
    EXPECT_EQ(sizeOf(dir + "/rank-0.ring"), -1);
    auto t = Trace::open(dir);
    EXPECT_TRUE(t);
    std::vector<uint32_t> tags;
    if (t)
      t->forEachEvent(0, [&](const Event &e) {
        EXPECT_EQ(e.kind, EventKind::Send);
        EXPECT_EQ(e.timestamp, 1000u + e.tag);
        tags.push_back(e.tag);
        return true;
      });
    return tags;
  }
  static std::vector<uint32_t> range(uint32_t n) {
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; i++) v[i] = i;
    return v;
  }
};

// A kill while a half was being written, then zeroed: the log holds part
// of what the ring still has, and the ring's record 9 is torn (fields
// zeroed, kind not yet); the log wins where both have a record, nothing
// repeats.
TEST_F(RepairFromRecordsTest, RingOverlaysLog) {
  std::string dir = killedRun();
  writeLog(dir + "/rank-0.log", records(0, 10));
  std::vector<czt_record> ring = records(8, 13);
  uint8_t kind = ring[1].kind;
  std::memset(&ring[1], 0, sizeof ring[1]);
  ring[1].kind = kind;
  writeRing(dir + "/rank-0.ring", 8, {{8, ring}, {CZT_RING_EMPTY, {}}});
  uint64_t reported = 0;
  EXPECT_EQ(repairedTags(dir, &reported), range(13));
  EXPECT_EQ(reported, 13u);
}

// A payload of at most CZT_CRC_FROM_PREFIX_BYTES is recorded with its
// prefix alone: its CRC-32 is computed when the records are encoded (here
// by repair), and equals zlib's of the payload; a longer one keeps the
// CRC the tracer stored.
TEST_F(RepairFromRecordsTest, TinyPayloadCrcFromPrefix) {
  std::string dir = killedRun();
  const unsigned char hello[5] = {'h', 'e', 'l', 'l', 'o'};
  std::vector<czt_record> log = records(0, 2);
  log[0].bytes = sizeof hello;
  log[0].prefix = 0;
  for (unsigned i = 0; i < sizeof hello; i++) log[0].prefix |= uint64_t(hello[i]) << (8 * i);
  log[0].crc = 0;
  log[1].bytes = 64;
  log[1].crc = 0x12345678u;
  writeLog(dir + "/rank-0.log", log);
  uint64_t reported = 0;
  EXPECT_EQ(repairedTags(dir, &reported), range(2));
  auto t = Trace::open(dir);
  ASSERT_TRUE(t);
  std::vector<std::optional<uint32_t>> crcs;
  t->forEachEvent(0, [&](const Event &e) {
    crcs.push_back(e.crc32);
    return true;
  });
  ASSERT_EQ(crcs.size(), 2u);
  EXPECT_EQ(crcs[0], uint32_t(crc32_z(0L, hello, sizeof hello)));
  EXPECT_EQ(crcs[1], 0x12345678u);
}

// Both halves full (the older one not yet written) and the newer one
// filling: events come from log, older half, newer half in order.
TEST_F(RepairFromRecordsTest, BothHalves) {
  std::string dir = killedRun();
  writeLog(dir + "/rank-0.log", records(0, 4));
  writeRing(dir + "/rank-0.ring", 4, {{8, records(8, 11)}, {4, records(4, 8)}});
  uint64_t reported = 0;
  EXPECT_EQ(repairedTags(dir, &reported), range(11));
}

// Records missing from both files end the events (nothing after a gap is
// trusted), and a record whose kind was not yet stored is not an event.
TEST_F(RepairFromRecordsTest, GapAndUnfinishedRecord) {
  std::string dir = killedRun();
  writeLog(dir + "/rank-0.log", records(0, 5));
  writeRing(dir + "/rank-0.ring", 8, {{8, records(8, 10)}, {CZT_RING_EMPTY, {}}});
  uint64_t reported = 0;
  EXPECT_EQ(repairedTags(dir, &reported), range(5));

  std::string dir2 = killedRun("killed2");
  std::vector<czt_record> ring = records(0, 4);
  ring[3].kind = CZT_REC_END; // killed before its kind was stored
  writeRing(dir2 + "/rank-0.ring", 8, {{0, ring}, {CZT_RING_EMPTY, {}}});
  EXPECT_EQ(repairedTags(dir2, &reported), range(3));
  EXPECT_EQ(reported, 3u);
}

// A half whose first record is not on a half boundary cannot be placed:
// refused, naming the ring.
TEST_F(RepairFromRecordsTest, MisplacedHalf) {
  std::string dir = killedRun();
  writeLog(dir + "/rank-0.log", records(0, 8));
  writeRing(dir + "/rank-0.ring", 8, {{7, records(7, 10)}, {CZT_RING_EMPTY, {}}});
  auto rep = repair(dir);
  ASSERT_FALSE(rep);
  EXPECT_NE(rep.error().message().find("half 0 starts at record 7"), std::string::npos)
      << rep.error().message();
}

// A ring cut short is refused with its name and size; nothing is written.
TEST_F(RepairFromRecordsTest, TruncatedRing) {
  std::string dir = killedRun();
  writeRing(dir + "/rank-0.ring", 8, {{0, records(0, 3)}, {CZT_RING_EMPTY, {}}});
  truncateFile(dir + "/rank-0.ring", CZT_RING_HEADER_BYTES + 100);
  auto rep = repair(dir);
  ASSERT_FALSE(rep);
  EXPECT_NE(rep.error().message().find("rank-0.ring"), std::string::npos) << rep.error().message();
  EXPECT_NE(rep.error().message().find("truncated"), std::string::npos) << rep.error().message();
  EXPECT_EQ(sizeOf(dir + "/traces.otf2"), -1);
  EXPECT_GT(sizeOf(dir + "/rank-0.ring"), 0);
}

// TSC ticks become CLOCK_MONOTONIC ns through the calibration pairs, in
// the log and in the ring alike; a tick that went backwards (another core)
// never makes time go backwards.
TEST_F(RepairFromRecordsTest, TscTicksMapped) {
  std::string dir = killedRun();
  czt_ring_header clock{};
  clock.clock = CZT_CLOCK_TSC;
  clock.start = {1000, 5000};
  clock.start_later = {21000, 15000};
  clock.latest = {41000, 25000}; // 0.5 ns per tick
  std::vector<czt_record> log = records(0, 3), ring = records(3, 6);
  for (auto *v : {&log, &ring})
    for (czt_record &r : *v) r.t = 1000 + 100 * r.tag;
  ring[1].t = ring[0].t - 10;
  writeLog(dir + "/rank-0.log", log, CZT_CLOCK_TSC);
  writeRing(dir + "/rank-0.ring", 3, {{3, ring}, {CZT_RING_EMPTY, {}}}, &clock);
  ASSERT_TRUE(repair(dir));
  auto t = Trace::open(dir);
  ASSERT_TRUE(t);
  std::vector<uint64_t> times;
  t->forEachEvent(0, [&](const Event &e) {
    times.push_back(e.timestamp);
    return true;
  });
  EXPECT_EQ(times, (std::vector<uint64_t>{5000, 5050, 5100, 5150, 5150, 5250}));

  // Without the ring the ticks cannot be mapped: refused, naming both.
  std::string dir2 = killedRun("killed2");
  writeLog(dir2 + "/rank-0.log", log, CZT_CLOCK_TSC);
  auto rep = repair(dir2);
  ASSERT_FALSE(rep);
  EXPECT_NE(rep.error().message().find("rank-0.ring"), std::string::npos) << rep.error().message();
}

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
