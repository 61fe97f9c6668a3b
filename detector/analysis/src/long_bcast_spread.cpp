// long_bcast_spread.cpp: the spread of a long broadcast followed from its
// root (followSpread, long_bcast.h): which messages carried runs of
// consecutive pieces, told by their CRCs (crc32_combine of the pieces'),
// and where each member first received its own piece. long_bcast.cpp reads
// the roll and asks this for the proof of the spread before it.
#include "long_bcast.h"

#include <zlib.h>

#include <algorithm>
#include <map>

namespace cz::detect::detail {

namespace {

// CRCs and lengths of runs of pieces, indices taken mod the piece count.
class Runs {
public:
  explicit Runs(const std::vector<Piece> &pieces) : p_(pieces) {}
  size_t size() const { return p_.size(); }
  // The run starting at `start` of exactly `bytes` bytes and at most
  // `most` pieces: its length in pieces, or 0.
  size_t lengthOf(size_t start, uint64_t bytes, size_t most) const {
    uint64_t sum = 0;
    for (size_t len = 1; len <= most; len++) {
      sum += p_[(start + len - 1) % p_.size()].bytes;
      if (sum == bytes) return len;
      if (sum > bytes) return 0;
    }
    return 0;
  }
  uint32_t crc(size_t start, size_t len) {
    auto [it, fresh] = cache_.try_emplace({start, len}, 0);
    if (fresh) {
      uint32_t c = p_[start % p_.size()].crc;
      for (size_t i = 1; i < len; i++) {
        const Piece &next = p_[(start + i) % p_.size()];
        c = uint32_t(crc32_combine64(c, next.crc, z_off64_t(next.bytes)));
      }
      it->second = c;
    }
    return it->second;
  }

private:
  const std::vector<Piece> &p_;
  std::map<std::pair<size_t, size_t>, uint32_t> cache_;
};

struct Holding {
  uint32_t rank;
  size_t start, len; // the run of pieces
  uint32_t from;     // position from which the rank had it
};

} // namespace

SpreadChain followSpread(const MessageTable &t, const std::vector<uint32_t> &slotRank,
                         const std::vector<Piece> &pieces, uint32_t rootFrom, uint32_t rootTo,
                         const std::vector<uint32_t> &forwardTo, const SendsBetween &sendsBetween) {
  const size_t n = pieces.size();
  SpreadChain out;
  out.ownAt.assign(n, kNone);
  if (n == 0 || slotRank.size() != n || forwardTo.size() != n) return out;
  auto slotOf = [&](uint32_t w) -> int {
    for (size_t k = 0; k < n; k++)
      if (slotRank[k] == w) return int(k);
    return -1;
  };
  Runs runs(pieces);
  std::vector<Holding> work{{slotRank[0], 0, n, rootFrom}};
  std::vector<uint32_t> used, sends;
  for (size_t w = 0; w < work.size(); w++) {
    const Holding h = work[w];
    const bool root = h.rank == slotRank[0];
    int slot = slotOf(h.rank);
    uint32_t to = root ? rootTo : forwardTo[size_t(slot)];
    sendsBetween(h.rank, root ? rootFrom : h.from + 1, to, sends);
    for (uint32_t i : sends) {
      if (std::find(used.begin(), used.end(), i) != used.end()) continue;
      const Message &m = t.messages[i];
      if (m.bytes == 0 || !m.hashed || m.dst == slotRank[0]) continue;
      // Runs inside what the sender holds (the root: any run, wrapping too).
      size_t carried = 0, first = 0;
      for (size_t a = 0; a < h.len && !carried; a++) {
        size_t start = (h.start + a) % n;
        size_t len = runs.lengthOf(start, m.bytes, root ? n : h.len - a);
        if (len && runs.crc(start, len) == m.crc) carried = len, first = start;
      }
      if (!carried) continue;
      used.push_back(i);
      int dst = slotOf(m.dst);
      if (dst < 0) {
        if (carried == n && std::find(out.wholeTo.begin(), out.wholeTo.end(), m.dst) ==
                                out.wholeTo.end())
          out.wholeTo.push_back(m.dst);
        continue;
      }
      work.push_back({m.dst, first, carried, m.recvPos});
      size_t own = (size_t(dst) + n - first) % n; // dst's piece, relative to the run
      if (own < carried && m.recvPos < out.ownAt[size_t(dst)]) out.ownAt[size_t(dst)] = m.recvPos;
    }
  }
  std::sort(used.begin(), used.end());
  out.used = std::move(used);
  return out;
}

} // namespace cz::detect::detail
