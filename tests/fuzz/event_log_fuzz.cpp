// event_log_fuzz.cpp: the event records a rank leaves while it runs
// (rank-N.log and rank-N.ring, runtime/trace/defs/event_log.h), walked as
// `trace repair` and MPI_Finalize walk them before encoding them into OTF2:
// headers, ring halves, record kinds, the TSC calibration. Input: byte 0
// says which files exist (bit 0 the log, bit 1 the ring); with both, the
// next two bytes give the log's share of the rest (in 64-byte units).
#include <cstdint>
#include <cstring>

#include "event_log.h"
#include "fuzz_support.h"

namespace {

struct Walked {
  uint64_t records = 0, lastTime = 0;
};

int onRecord(void *ctx, const czt_record *r) {
  auto *w = static_cast<Walked *>(ctx);
  cz::fuzz::require(r->kind != CZT_REC_END && r->kind < CZT_REC_KINDS, "walked a record of no known kind");
  cz::fuzz::require(w->records == 0 || r->t >= w->lastTime, "timestamps went backwards");
  w->records++;
  w->lastTime = r->t;
  return 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  bool haveLog = data[0] & 1, haveRing = data[0] & 2;
  data++, size--;
  size_t logBytes = haveLog ? size : 0;
  if (haveLog && haveRing) {
    if (size < 2) return 0;
    logBytes = std::min<size_t>(size - 2, size_t(data[0] | data[1] << 8) * 64);
    data += 2, size -= 2;
  }
  czt_log_bytes log = {"rank-0.log", haveLog ? data : nullptr, logBytes};
  czt_log_bytes ring = {"rank-0.ring", haveRing ? data + logBytes : nullptr,
                        haveRing ? size - logBytes : 0};
  Walked walked;
  czt_rank_span span;
  char why[600] = "";
  int rc = czt_log_walk(&log, &ring, onRecord, &walked, &span, why, sizeof why);
  cz::fuzz::require(rc == 0 || why[0], "refused the records without saying why");
  cz::fuzz::require(span.events == walked.records, "span miscounts the records");
  // Records come from the files' bytes: never more than they hold.
  cz::fuzz::require(span.events <= (log.size + ring.size) / sizeof(czt_record), "more records than bytes");
  return 0;
}
