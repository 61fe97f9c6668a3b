// block_crcs.h: the CRC-32 of every n-byte block of a message, from the
// trace's rank-N.blocks files (written when the traced run set
// COLLECTIVIZE_TRACE_BLOCK_BYTES=n; collectivize_trace_format.h). With
// them a block packed into messages with others (Bruck's alltoall) is an
// item of its own that the analyses can follow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cz::detect {

struct MessageTable;

struct BlockCrcs {
  uint64_t blockBytes = 0;     // n; 0: the trace has no block CRCs
  std::vector<uint64_t> first; // per message: its first CRC in `crcs`
  std::vector<uint32_t> count; // per message: its blocks (0: none recorded)
  std::vector<uint32_t> crcs;
  bool has(uint32_t message) const { return message < count.size() && count[message] > 0; }
};

// Reads <traceDir>/rank-N.blocks for every rank into t.blocks. An entry is
// kept only when it names one of the rank's matched sends, has bytes / n
// blocks and its CRCs combine to the send's CRC; what was dropped, and
// why, is added to t.warnings. No files: t.blocks stays empty.
void readBlockCrcs(const std::string &traceDir, MessageTable &t);

// The same for a share of the ranks (the parallel mode: each process its
// own ranks' sends, t holding those): entries of the ranks r with
// r % stride == offset, every file's header (so that all shares agree on
// the block size). The warnings are the caller's (blockCrcWarnings).
struct BlockCrcReading {
  std::vector<std::string> unreadable; // files that are not block CRC files
  uint64_t otherSize = 0;              // ranks' files with another block size
  uint64_t dropped = 0;                // entries that do not fit their send
};
BlockCrcReading readBlockCrcsOfRanks(const std::string &traceDir, MessageTable &t, int stride,
                                     int offset);
// Appends what readBlockCrcs reports about a reading to t.warnings.
void addBlockCrcWarnings(const BlockCrcReading &reading, MessageTable &t);

} // namespace cz::detect
