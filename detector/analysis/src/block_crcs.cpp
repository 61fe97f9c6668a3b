// block_crcs.cpp: see block_crcs.h. The files are small (4 bytes per
// block of the sends that have them) and read whole.
#include "collectivize/block_crcs.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "collectivize/messages.h"
#include "collectivize_trace_format.h"

namespace cz::detect {
namespace {

uint64_t le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

// The matched message rank sent as its event `pos`, or kNone (the table is
// ordered by sender and send position).
uint32_t sendAt(const MessageTable &t, uint32_t rank, uint64_t pos) {
  auto it = std::lower_bound(t.messages.begin(), t.messages.end(), std::make_pair(rank, pos),
                             [](const Message &m, const std::pair<uint32_t, uint64_t> &k) {
                               return m.src != k.first ? m.src < k.first : m.sendPos < k.second;
                             });
  if (it == t.messages.end() || it->src != rank || it->sendPos != pos) return kNone;
  return uint32_t(it - t.messages.begin());
}

} // namespace

BlockCrcReading readBlockCrcsOfRanks(const std::string &dir, MessageTable &t, int stride,
                                     int offset) {
  BlockCrcs &b = t.blocks;
  b = BlockCrcs{};
  BlockCrcReading out;
  uint64_t &dropped = out.dropped, &otherSize = out.otherSize;
  for (int r = 0; r < t.ranks; r++) {
    char name[64];
    std::snprintf(name, sizeof name, CZ_TRACE_BLOCKS_FMT, r);
    std::ifstream in(dir + "/" + name, std::ios::binary);
    if (!in) continue;
    // The header only, for another share's rank.
    const size_t header = CZ_TRACE_BLOCKS_HEADER_BYTES;
    std::vector<unsigned char> data(header);
    in.read(reinterpret_cast<char *>(data.data()), std::streamsize(header));
    data.resize(size_t(in.gcount()));
    if (r % stride == offset && data.size() == header)
      data.insert(data.end(), std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (data.size() < header || le(data.data(), 8) != CZ_TRACE_BLOCKS_MAGIC ||
        le(data.data() + 8, 4) != CZ_TRACE_BLOCKS_VERSION || le(data.data() + 12, 4) == 0) {
      out.unreadable.push_back(dir + "/" + name);
      continue;
    }
    uint64_t n = le(data.data() + 12, 4);
    if (b.blockBytes == 0) {
      b.blockBytes = n;
      b.first.assign(t.messages.size(), 0);
      b.count.assign(t.messages.size(), 0);
    } else if (n != b.blockBytes) {
      otherSize++;
      continue;
    }
    if (r % stride != offset) continue;
    // Entries up to the last whole one (a killed run cuts the file).
    for (size_t at = header; at + 12 <= data.size();) {
      uint64_t pos = le(data.data() + at, 8);
      uint64_t blocks = le(data.data() + at + 8, 4);
      if (at + 12 + 4 * blocks > data.size()) break;
      const unsigned char *crc = data.data() + at + 12;
      at += 12 + 4 * blocks;
      uint32_t i = sendAt(t, uint32_t(r), pos);
      if (i == kNone) continue; // an unmatched or kept send
      const Message &m = t.messages[i];
      uint32_t whole = 0;
      for (uint64_t k = 0; k < blocks; k++)
        whole = uint32_t(crc32_combine64(whole, uint32_t(le(crc + 4 * k, 4)), z_off64_t(n)));
      if (!m.hashed || m.bytes != blocks * n || whole != m.crc) {
        dropped++;
        continue;
      }
      b.first[i] = b.crcs.size();
      b.count[i] = uint32_t(blocks);
      for (uint64_t k = 0; k < blocks; k++) b.crcs.push_back(uint32_t(le(crc + 4 * k, 4)));
    }
  }
  return out;
}

void addBlockCrcWarnings(const BlockCrcReading &reading, MessageTable &t) {
  for (const std::string &file : reading.unreadable)
    t.warnings.push_back(file + ": not a version-1 block CRC file; ignored");
  if (reading.otherSize)
    t.warnings.push_back(std::to_string(reading.otherSize) + " ranks' block CRC files use another "
                         "block size than rank files read before them; ignored");
  if (reading.dropped)
    t.warnings.push_back(std::to_string(reading.dropped) + " block CRC entries do not add up to "
                         "their message's CRC (or size); ignored");
}

void readBlockCrcs(const std::string &dir, MessageTable &t) {
  addBlockCrcWarnings(readBlockCrcsOfRanks(dir, t, 1, 0), t);
}

} // namespace cz::detect
