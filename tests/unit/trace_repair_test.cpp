// trace_repair_test.cpp: `collectivize trace repair` from the tracer's
// event records (rank-N.log + rank-N.ring) a killed rank left: which
// records become events, in which order, and what is refused.
#include <gtest/gtest.h>
#include <zlib.h>

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "collectivize/trace_reader.h"
#include "event_log.h"
#include "trace_reader_fixture.h"

using namespace cz::trace;
using cz::trace::test::TraceReaderTest;

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
