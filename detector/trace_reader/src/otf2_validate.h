// otf2_validate.h: structural checks of OTF2 files before OTF2 reads them.
// OTF2 3.0's reader can loop forever on a truncated chunked file (.evt,
// .def), so every file is checked here first: each chunk (one every
// chunkSize bytes) starts with a chunk header (0x03, endianness byte,
// first and last event number), event numbers continue from chunk to chunk,
// and a finished file ends with END_OF_FILE (0x02) [END_OF_BUFFER 0x01].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_source.h"
#include "collectivize/trace_reader.h"

namespace cz::trace::detail {

// The manifest (collectivize-trace.txt): "key value" lines.
Result<Manifest> readManifest(const std::string &path);
// The same from the manifest's text (`path` names it in errors).
Result<Manifest> parseManifest(const std::string &text, const std::string &path);

enum class FileState {
  Complete,  // structurally whole
  Truncated, // a valid prefix, then the file stops (run killed, disk full)
  Missing,   // no such file
  Corrupt,   // not OTF2 chunks at `offset`
};

struct FileCheck {
  FileState state = FileState::Corrupt;
  uint64_t size = 0;
  // Events in the chunks that are whole (event files): reading stops there.
  uint64_t readableEvents = 0;
  int64_t offset = -1; // where the truncation or corruption starts
  std::string reason;
};

// The records of one event chunk (header included), up to OTF2's end mark
// (end of chunk 0x00 or end of file 0x02) or the first incomplete record.
struct ChunkWalk {
  FileState state = FileState::Truncated; // Complete: ended by end of file
  uint64_t pos = 0;          // offset of the end mark / where the walk stopped
  uint64_t events = 0;       // event number of the last whole record
  uint64_t eventEnd = 0;     // offset just after that record
  bool endOfChunk = false;   // stopped at an end-of-chunk mark (or zeros)
  std::optional<uint64_t> firstTime, lastTime; // timestamp records seen
  std::string reason;
};
ChunkWalk walkEventChunk(const std::vector<uint8_t> &chunk, uint64_t eventsBefore);

// chunked: event and local/global definition files. countEvents: the chunk
// headers carry event numbers (event files) that must continue.
FileCheck checkChunkedFile(const std::string &path, uint64_t chunkSize, bool countEvents);
// The same checks on bytes from anywhere (checkChunkedFile reads the file
// through this): what the fuzz targets exercise.
FileCheck checkChunkedBytes(const ByteSource &bytes, uint64_t chunkSize, bool countEvents);

} // namespace cz::trace::detail
