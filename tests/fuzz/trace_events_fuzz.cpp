// trace_events_fuzz.cpp: a rank's OTF2 event file (N.evt) from memory, as
// the trace reader takes it: the structural validation every file passes
// before anything reads it, then the direct decoder, bounded by the event
// count validation allowed (Trace::forEachEvent), and the chunk walk
// `trace repair` uses for time spans. The first input byte picks the chunk
// size (the tracer's, or small ones so that short inputs span chunks); the
// rest is the file. No OTF2 file layer: thousands of inputs a second.
#include <cstdint>
#include <vector>

#include "byte_source.h"
#include "collectivize_trace_format.h"
#include "evt_direct.h"
#include "fuzz_support.h"
#include "otf2_validate.h"

using namespace cz::trace;
using namespace cz::trace::detail;

namespace {

struct Seen {
  uint64_t events = 0;
};

bool onEvent(void *ctx, Event &e, const DirectAttribute *attrs, size_t count) {
  auto *seen = static_cast<Seen *>(ctx);
  seen->events++;
  cz::fuzz::require(unsigned(e.kind) <= unsigned(EventKind::Leave), "decoded an unknown event kind");
  for (size_t i = 0; i < count; i++) (void)attrs[i].value;
  (void)eventKindName(e.kind);
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static const uint64_t kChunkSizes[] = {CZ_TRACE_EVENT_CHUNK_BYTES, 64, 256, 4096};
  const uint64_t chunk = kChunkSizes[data[0] & 3];
  ByteSource bytes = ByteSource::memory(data + 1, size - 1);

  FileCheck c = checkChunkedBytes(bytes, chunk, true);
  // Every event record takes at least two bytes: a file cannot announce more
  // events than that, whatever its chunk headers claim (the reader reserves
  // memory by this count).
  cz::fuzz::require(c.readableEvents <= bytes.size() / 2, "more readable events than the file can hold");
  if (c.state == FileState::Complete || c.state == FileState::Truncated) {
    Seen seen;
    DirectRead r = readEventsDirect(bytes, chunk, c.readableEvents, onEvent, &seen);
    cz::fuzz::require(r.handedOut == seen.events, "events handed out miscounted");
    cz::fuzz::require(r.handedOut <= c.readableEvents, "decoded more events than validation allowed");
  }
  // The definitions files are validated the same way, without event numbers.
  (void)checkChunkedBytes(bytes, chunk, false);
  // The first chunk, walked as `trace repair` walks it for time spans.
  std::vector<uint8_t> first(data + 1, data + 1 + std::min<uint64_t>(size - 1, chunk));
  ChunkWalk w = walkEventChunk(first, 0);
  cz::fuzz::require(w.pos <= first.size() && w.eventEnd <= first.size(), "chunk walk ran past its chunk");
  return 0;
}
