// otf2_validate.cpp: see otf2_validate.h. Reads only chunk headers and the
// file's last bytes, so it costs next to nothing even for large traces.
#include "otf2_validate.h"

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace cz::trace::detail {
namespace {

constexpr uint8_t kChunkHeader = 0x03;
constexpr uint8_t kEndOfFile = 0x02;
constexpr uint8_t kEndOfBuffer = 0x01;
constexpr uint8_t kLittleEndian = 0x42, kBigEndian = 0x23;
constexpr uint64_t kHeaderSize = 18; // id, endianness, first, last (uint64 each)
// OTF2 itself allows at most 16 MiB; anything near this is a corrupt anchor.
constexpr uint64_t kMaxChunkSize = uint64_t(1) << 30;

uint64_t decode64(const uint8_t *p, bool bigEndian) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= uint64_t(p[bigEndian ? 7 - i : i]) << (8 * i);
  return v;
}

std::string hex2(uint8_t b) {
  char s[8];
  std::snprintf(s, sizeof s, "0x%02x", b);
  return s;
}

using Walk = ChunkWalk;

// Event files interleave 9-byte timestamps (type 0x05) and attribute lists
// (0x06) with records; in definition files those codes are ordinary
// definition records with a length byte.
Walk walkLastChunk(const std::vector<uint8_t> &b, bool bigEndian, uint64_t eventsBefore,
                   bool eventFile) {
  constexpr uint8_t kEndOfChunk = 0x00, kTimestamp = 0x05, kAttributeList = 0x06;
  Walk w;
  w.events = eventsBefore;
  uint64_t pos = kHeaderSize, n = b.size();
  w.eventEnd = pos;
  while (pos < n) {
    uint8_t t = b[pos];
    w.pos = pos;
    if (t == kEndOfFile) {
      if (pos + 1 == n || (pos + 2 == n && b[pos + 1] == kEndOfBuffer)) {
        w.state = FileState::Complete;
      } else {
        w.state = FileState::Corrupt;
        w.reason = "data after the end-of-file mark";
      }
      return w;
    }
    if (t == kEndOfChunk) {
      w.endOfChunk = true;
      w.reason = "the chunk ends without OTF2's end-of-file mark (the file was not closed)";
      return w;
    }
    if (t < kTimestamp) {
      w.state = FileState::Corrupt;
      w.reason = "unexpected record type " + hex2(t);
      return w;
    }
    if (eventFile && t == kTimestamp) {
      if (pos + 9 > n) break;
      uint64_t time = decode64(&b[pos + 1], bigEndian);
      if (!w.firstTime) w.firstTime = time;
      w.lastTime = time;
      pos += 9;
      continue;
    }
    if (pos + 2 > n) break;
    uint64_t len = b[pos + 1], head = 2;
    if (len == 0xff) {
      if (pos + 10 > n) break;
      len = decode64(&b[pos + 2], bigEndian);
      head = 10;
    }
    if (len > n || pos + head + len > n) break;
    pos += head + len;
    if (!eventFile || t != kAttributeList) w.events++, w.eventEnd = pos;
  }
  w.reason = pos >= n ? "the file ends after its last whole record, without OTF2's end-of-file mark"
                      : "the file ends inside a record (" + std::to_string(n) +
                            " bytes of the chunk written)";
  w.pos = pos;
  return w;
}

} // namespace

ChunkWalk walkEventChunk(const std::vector<uint8_t> &chunk, uint64_t eventsBefore) {
  if (chunk.size() < kHeaderSize) {
    ChunkWalk w;
    w.reason = "shorter than a chunk header";
    return w;
  }
  return walkLastChunk(chunk, chunk[1] == kBigEndian, eventsBefore, true);
}

FileCheck checkChunkedFile(const std::string &path, uint64_t chunkSize, bool countEvents) {
  FileCheck c;
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    c.state = errno == ENOENT ? FileState::Missing : FileState::Corrupt;
    c.reason = errno == ENOENT ? "missing" : std::string("cannot stat: ") + std::strerror(errno);
    return c;
  }
  if (!S_ISREG(st.st_mode)) {
    c.reason = "not a regular file";
    return c;
  }
  int fd = st.st_size ? open(path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
  if (st.st_size && fd < 0) {
    c.size = uint64_t(st.st_size);
    c.reason = std::string("cannot open: ") + std::strerror(errno);
    return c;
  }
  c = checkChunkedBytes(ByteSource::file(fd, uint64_t(st.st_size)), chunkSize, countEvents);
  if (fd >= 0) close(fd);
  return c;
}

FileCheck checkChunkedBytes(const ByteSource &bytes, uint64_t chunkSize, bool countEvents) {
  FileCheck c;
  c.size = bytes.size();
  if (chunkSize < kHeaderSize + 2 || chunkSize > kMaxChunkSize) {
    c.reason = "archive declares an impossible chunk size " + std::to_string(chunkSize);
    return c;
  }
  if (c.size == 0) {
    c.state = FileState::Truncated;
    c.offset = 0;
    c.reason = "empty file (nothing was flushed)";
    return c;
  }
  uint64_t chunks = (c.size + chunkSize - 1) / chunkSize;
  uint64_t expectFirst = 1;  // event number the next chunk must start with
  uint64_t wholeEvents = 0;  // events in chunks known to be whole
  bool bigEndian = false;
  for (uint64_t k = 0; k < chunks; k++) {
    uint64_t off = k * chunkSize;
    uint64_t avail = std::min(chunkSize, c.size - off);
    bool last = k + 1 == chunks;
    uint8_t h[kHeaderSize];
    if (avail < kHeaderSize) {
      // A partial header can only be a truncation (headers start chunks).
      if (!bytes.readAll(h, avail, off) || h[0] != kChunkHeader) {
        c.state = FileState::Corrupt;
        c.offset = int64_t(off);
        c.reason = "no OTF2 chunk header";
      } else {
        c.state = FileState::Truncated;
        c.offset = int64_t(off);
        c.reason = "file ends inside a chunk header";
      }
      c.readableEvents = wholeEvents;
      return c;
    }
    if (!bytes.readAll(h, kHeaderSize, off)) {
      c.offset = int64_t(off);
      c.reason = "read error";
      return c;
    }
    if (h[0] != kChunkHeader || (h[1] != kLittleEndian && h[1] != kBigEndian)) {
      c.state = FileState::Corrupt;
      c.offset = int64_t(off + (h[0] != kChunkHeader ? 0 : 1));
      c.reason = h[0] != kChunkHeader
                     ? "expected an OTF2 chunk header (0x03), found " + hex2(h[0]) +
                           (k == 0 ? " (not an OTF2 file)" : "")
                     : "invalid endianness byte " + hex2(h[1]);
      c.readableEvents = wholeEvents;
      return c;
    }
    bigEndian = h[1] == kBigEndian;
    uint64_t first = decode64(h + 2, bigEndian), lastEv = decode64(h + 10, bigEndian);
    if (countEvents) {
      if (first != expectFirst) {
        c.state = FileState::Corrupt;
        c.offset = int64_t(off + 2);
        c.reason = "chunk " + std::to_string(k) + " starts at event " + std::to_string(first) +
                   ", expected " + std::to_string(expectFirst);
        c.readableEvents = wholeEvents;
        return c;
      }
      // Every event record takes at least two bytes (a type byte and a
      // field): a header announcing more events than a whole chunk can hold
      // is corrupt, and its count must not reach the reader (which reserves
      // memory by it). The last chunk may be cut short: its events are
      // counted from its bytes below.
      if (lastEv + 1 >= first && lastEv - first + 1 > (chunkSize - kHeaderSize) / 2) {
        c.state = FileState::Corrupt;
        c.offset = int64_t(off + 10);
        c.reason = "chunk " + std::to_string(k) + " announces " + std::to_string(lastEv - first + 1) +
                   " events, more than its " + std::to_string(chunkSize) + " bytes can hold";
        c.readableEvents = wholeEvents;
        return c;
      }
      if (lastEv + 1 < first) {
        // The header's event count is written when the chunk is completed:
        // a chunk that never was (killed run) has none.
        c.state = FileState::Truncated;
        c.offset = int64_t(off);
        c.reason = "chunk " + std::to_string(k) + " was never completed (no event count)";
        c.readableEvents = wholeEvents;
        return c;
      }
    }
    if (!last) {
      if (countEvents) wholeEvents = lastEv, expectFirst = lastEv + 1;
      continue;
    }
    // The last chunk: walk its records (every record is a type byte and a
    // length, timestamps are 9 bytes) to find where the data really ends.
    std::vector<uint8_t> buf(avail);
    if (!bytes.readAll(buf.data(), avail, off)) {
      c.offset = int64_t(off);
      c.reason = "read error";
      return c;
    }
    Walk w = walkLastChunk(buf, bigEndian, countEvents ? first - 1 : 0, countEvents);
    c.readableEvents = countEvents ? w.events : 0;
    if (w.state == FileState::Complete) {
      c.state = FileState::Complete;
      if (countEvents && w.events != lastEv) {
        c.state = FileState::Corrupt;
        c.offset = int64_t(off + 10);
        c.reason = "chunk " + std::to_string(k) + " holds " + std::to_string(w.events - first + 1) +
                   " events but its header says " + std::to_string(lastEv - first + 1);
      }
      return c;
    }
    c.state = w.state;
    c.offset = int64_t(off + w.pos);
    c.reason = (w.state == FileState::Truncated ? "chunk " + std::to_string(k) + ": " : "") + w.reason;
    if (w.state == FileState::Corrupt) c.reason = "chunk " + std::to_string(k) + ": " + w.reason;
    return c;
  }
  c.state = FileState::Complete;
  return c;
}

} // namespace cz::trace::detail
