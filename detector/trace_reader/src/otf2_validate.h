// otf2_validate.h: structural checks of OTF2 files before OTF2 reads them.
// OTF2 3.0's reader can loop forever on a truncated chunked file (.evt,
// .def), so every file is checked here first: each chunk (one every
// chunkSize bytes) starts with a chunk header (0x03, endianness byte,
// first and last event number), event numbers continue from chunk to chunk,
// and a finished file ends with END_OF_FILE (0x02) [END_OF_BUFFER 0x01].
#pragma once

#include <cstdint>
#include <string>

namespace cz::trace::detail {

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

// chunked: event and local/global definition files. countEvents: the chunk
// headers carry event numbers (event files) that must continue.
FileCheck checkChunkedFile(const std::string &path, uint64_t chunkSize, bool countEvents);

} // namespace cz::trace::detail
