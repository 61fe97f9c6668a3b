// fuzz_findings_test.cpp: what the fuzz targets (tests/fuzz) found, each
// kept as the smallest input that showed it, so that the ordinary suite
// fails if the defect comes back (the fuzz targets run only for seconds).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "byte_source.h"
#include "event_log.h"
#include "otf2_validate.h"

using namespace cz::trace::detail;

namespace {

void putHeader(std::vector<uint8_t> &b, size_t at, uint64_t first, uint64_t last) {
  b[at] = 0x03;     // chunk header
  b[at + 1] = 0x42; // little-endian
  for (int i = 0; i < 8; i++) {
    b[at + 2 + size_t(i)] = uint8_t(first >> (8 * i));
    b[at + 10 + size_t(i)] = uint8_t(last >> (8 * i));
  }
}

} // namespace

// trace_events_fuzz: a whole chunk whose header announced 2^40 events
// passed validation, and the reader reserves memory by that count.
TEST(FuzzFindings, ChunkHeaderCannotAnnounceMoreEventsThanItsBytes) {
  const uint64_t chunk = 64, claimed = uint64_t(1) << 40;
  std::vector<uint8_t> bytes(chunk + 20, 0);
  putHeader(bytes, 0, 1, claimed);
  putHeader(bytes, chunk, claimed + 1, claimed); // an empty last chunk
  bytes[chunk + 18] = 0x02;                      // end of file
  FileCheck c = checkChunkedBytes(ByteSource::memory(bytes.data(), bytes.size()), chunk, true);
  EXPECT_EQ(c.state, FileState::Corrupt) << c.reason;
  EXPECT_LE(c.readableEvents, bytes.size() / 2);
  EXPECT_NE(c.reason.find("more than its 64 bytes can hold"), std::string::npos) << c.reason;
}

// event_log_fuzz: a ring's TSC calibration that maps a tick beyond 2^64 ns
// converted a long double out of range (undefined behaviour; UBSan).
TEST(FuzzFindings, TscMappingSaturatesInsteadOfOverflowing) {
  czt_clock_map m{};
  m.tsc = 1;
  m.a = {0, 0};
  m.b = {1, uint64_t(1) << 60};
  EXPECT_EQ(czt_clock_ns(&m, uint64_t(1) << 20), UINT64_MAX);
  EXPECT_EQ(czt_clock_ns(&m, 0), 0u);
  m.b = {1000, 2000};
  EXPECT_EQ(czt_clock_ns(&m, 500), 1000u);
}
