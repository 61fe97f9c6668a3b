// buffer_maps.cpp: see buffer_maps.h. The maps are std::maps of pieces
// (start -> end, CRC, segments) whose nodes come from one pool.
#include "collectivize/buffer_maps.h"

#include <zlib.h>

#include <algorithm>
#include <tuple>
#include <map>
#include <unordered_map>

#include "flat_index.h"
#include "node_pool.h"

namespace cz::detect::detail {
namespace {

using Span = SegmentLists::Span;

// crc of A|B from crc(A), crc(B), |B| (zlib).
uint32_t combine(uint32_t a, uint32_t b, uint64_t lenB) {
  return uint32_t(crc32_combine64(a, b, z_off64_t(lenB)));
}

// The inverse of "shift by n bytes" (c -> combine(c, 0, n)), a linear map
// on 32-bit vectors: built from the images of the basis vectors and
// inverted over GF(2). Cached per length.
class Unshift {
public:
  uint32_t apply(uint32_t c, uint64_t n) {
    auto it = cache_.find(n);
    if (it == cache_.end()) it = cache_.emplace(n, inverse(n)).first;
    uint32_t r = 0;
    for (int j = 0; j < 32; j++)
      if (c >> j & 1) r ^= it->second[size_t(j)];
    return r;
  }

private:
  static std::vector<uint32_t> inverse(uint64_t n) {
    // rows[i]: row i of M as a bit vector over columns, augmented with I.
    uint32_t col[32];
    for (int j = 0; j < 32; j++) col[j] = combine(1u << j, 0, n);
    uint64_t rows[32];
    for (int i = 0; i < 32; i++) {
      uint64_t r = 0;
      for (int j = 0; j < 32; j++) r |= uint64_t(col[j] >> i & 1) << j;
      rows[i] = r | (uint64_t(1) << (32 + i));
    }
    for (int c = 0; c < 32; c++) {
      int p = c;
      while (p < 32 && !(rows[p] >> c & 1)) p++;
      if (p == 32) return std::vector<uint32_t>(32, 0); // not invertible (cannot happen)
      std::swap(rows[c], rows[p]);
      for (int i = 0; i < 32; i++)
        if (i != c && (rows[i] >> c & 1)) rows[i] ^= rows[c];
    }
    // Inverse columns: inv[j] = image of basis vector j.
    std::vector<uint32_t> inv(32, 0);
    for (int i = 0; i < 32; i++)
      for (int j = 0; j < 32; j++)
        if (rows[i] >> (32 + j) & 1) inv[size_t(j)] |= 1u << i;
    return inv;
  }
  std::unordered_map<uint64_t, std::vector<uint32_t>> cache_;
};

struct Piece {
  uint64_t end = 0;
  uint32_t crc = 0;
  bool crcKnown = false;
  Span segs; // in the segment pool
};
// start -> piece; nodes from the replay's pool (pieces come and go with
// every message).
using Memory = std::map<uint64_t, Piece, std::less<uint64_t>,
                        PoolAllocator<std::pair<const uint64_t, Piece>>>;

// Appends to the pool the segments of piece p covering [from, to)
// (offsets relative to p's start); returns their span.
Span slice(std::vector<Segment> &pool, const Piece &p, uint64_t from, uint64_t to) {
  Span out{pool.size(), 0};
  uint64_t at = 0;
  for (uint64_t k = p.segs.at; k < p.segs.at + p.segs.count; k++) {
    Segment s = pool[k];
    uint64_t a = std::max(at, from), b = std::min(at + s.bytes, to);
    if (a < b) pool.push_back({s.origin, s.offset + (a - at), b - a}), out.count++;
    at += s.bytes;
  }
  return out;
}

void forget(Memory &mem, uint64_t a, uint64_t b) {
  auto it = mem.lower_bound(a);
  if (it != mem.begin() && std::prev(it)->second.end > a) --it;
  while (it != mem.end() && it->first < b) it = mem.erase(it);
}

} // namespace

struct BufferMaps::State {
  NodePool nodes; // of the maps in mem (declared first: it outlives them)
  std::vector<Memory> mem;
  Unshift unshift;
  // Own data (rank, address, bytes, CRC or none) -> origin (this object's
  // index); the keys are the origins themselves.
  HashedIndex known;
  std::vector<Segment> pool;
  std::vector<Origin> origins;
  uint32_t idOffset, idStride;

  State(uint32_t maps, size_t messages, uint32_t offset, uint32_t stride)
      : known(messages / 2 + 16), idOffset(offset), idStride(stride) {
    mem.reserve(maps);
    for (uint32_t r = 0; r < maps; r++) mem.emplace_back(PoolAllocator<Memory::value_type>(nodes));
    pool.reserve(messages + 16);
    origins.reserve(messages + 16); // at most one per message
  }

  static uint64_t ownHash(uint32_t rank, uint64_t addr, uint64_t bytes, uint32_t keyCrc) {
    uint64_t h = (uint64_t(rank) << 32 | keyCrc) * 0x9E3779B97F4A7C15ull;
    h ^= (addr + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return mixBits(h ^ (bytes * 0x165667B19E3779F9ull));
  }

  // The id of the origin (rank, addr, bytes, crc), made if new, or made
  // anew when `remade` (the newest of equal keys is the one found later).
  uint32_t origin(uint32_t rank, uint64_t addr, uint64_t bytes, uint32_t crc, bool crcKnown,
                  uint32_t msg, bool remade) {
    uint32_t keyCrc = crcKnown ? crc : 0xffffffffu;
    uint64_t h = ownHash(rank, addr, bytes, keyCrc);
    auto same = [&](uint32_t o) {
      const Origin &og = origins[o];
      return og.rank == rank && og.address == addr && og.bytes == bytes &&
             (og.crcKnown ? og.crc : 0xffffffffu) == keyCrc;
    };
    uint32_t k;
    if (remade) {
      k = uint32_t(origins.size());
      known.assign(h, k, same);
      origins.push_back({rank, crc, addr, bytes, msg, crcKnown});
    } else {
      bool fresh;
      std::tie(k, fresh) = known.insert(h, uint32_t(origins.size()), same);
      if (fresh) origins.push_back({rank, crc, addr, bytes, msg, crcKnown});
    }
    return idOffset + k * idStride;
  }

  // The whole message is the sender's own data. `remade`: the very range
  // held other bytes since (it sent or received them there), so equal bytes
  // sent now are made again, another origin: a ping-pong client that stamps
  // iteration i into one buffer sends every server "the same" ping, which
  // is no block of one allgather.
  Decomposed own(Memory &mm, const Message &m, uint32_t msg, bool remade = false) {
    uint32_t o = origin(m.src, m.sendAddress, m.bytes, m.crc, m.hashed, msg, remade);
    Span segs{pool.size(), 1};
    pool.push_back({o, 0, m.bytes});
    forget(mm, m.sendAddress, m.sendAddress + m.bytes);
    mm[m.sendAddress] = {m.sendAddress + m.bytes, m.crc, m.hashed, segs};
    return {segs, m.hashed};
  }

  Decomposed send(Memory &mm, const Message &m, uint32_t msg) {
    if (m.bytes == 0) return {};
    uint64_t a = m.sendAddress, b = a + m.bytes;
    auto it = mm.upper_bound(a);
    if (it != mm.begin()) --it;
    // Inside one known piece: forwarding it, or a slice of it.
    if (it != mm.end() && it->first <= a && it->second.end >= b) {
      const Piece &p = it->second;
      if (it->first == a && p.end == b) {
        if (p.crcKnown && m.hashed && p.crc != m.crc) return own(mm, m, msg, true); // changed in place
        return {p.segs, p.crcKnown && m.hashed};
      }
      return {slice(pool, p, a - it->first, b - it->first), false}; // a slice: by address only
    }
    if (!m.hashed) return own(mm, m, msg);
    // Tile [a, b) with whole known pieces and at most one own range.
    struct Part {
      uint64_t from, to;
      const Piece *piece;
    };
    std::vector<Part> parts;
    uint64_t at = a;
    for (auto p = mm.lower_bound(a); p != mm.end() && p->first < b; ++p) {
      if (p->second.end > b || !p->second.crcKnown) break;
      if (p->first > at) parts.push_back({at, p->first, nullptr});
      parts.push_back({p->first, p->second.end, &p->second});
      at = p->second.end;
    }
    if (at < b) parts.push_back({at, b, nullptr});
    size_t gaps = 0, gapIndex = 0;
    for (size_t k = 0; k < parts.size(); k++)
      if (!parts[k].piece) gaps++, gapIndex = k;
    if (gaps > 1 || (gaps == 1 && parts.size() == 1)) return own(mm, m, msg);
    uint32_t gapCrc = 0;
    if (gaps == 1) {
      uint32_t before = 0, after = 0;
      uint64_t beforeLen = 0, afterLen = 0;
      for (size_t k = 0; k < gapIndex; k++) {
        before = combine(before, parts[k].piece->crc, parts[k].to - parts[k].from);
        beforeLen += parts[k].to - parts[k].from;
      }
      for (size_t k = gapIndex + 1; k < parts.size(); k++) {
        after = combine(after, parts[k].piece->crc, parts[k].to - parts[k].from);
        afterLen += parts[k].to - parts[k].from;
      }
      uint64_t gapLen = parts[gapIndex].to - parts[gapIndex].from;
      // m.crc = shift(before, gap+after) ^ shift(gap, after) ^ after
      uint32_t shifted = m.crc ^ after;
      if (beforeLen) shifted ^= combine(before, 0, gapLen + afterLen);
      gapCrc = afterLen ? unshift.apply(shifted, afterLen) : shifted;
    } else {
      uint32_t total = 0;
      for (const Part &p : parts) total = combine(total, p.piece->crc, p.to - p.from);
      if (total != m.crc) return own(mm, m, msg); // the pieces were changed before sending
    }
    // The gap's piece is entered after the loop: inserting into mm while
    // the parts point into it is fine for a std::map, but its one-segment
    // span is only known once the message's run is written.
    Span segs{pool.size(), 0};
    Span gapSpan{};
    uint64_t gapFrom = 0, gapTo = 0;
    for (const Part &p : parts) {
      if (p.piece) {
        for (uint64_t k = p.piece->segs.at; k < p.piece->segs.at + p.piece->segs.count; k++) {
          Segment s = pool[k];
          pool.push_back(s);
        }
        segs.count += p.piece->segs.count;
        continue;
      }
      uint32_t o = origin(m.src, p.from, p.to - p.from, gapCrc, true, msg, false);
      gapSpan = {pool.size(), 1};
      gapFrom = p.from, gapTo = p.to;
      pool.push_back({o, 0, p.to - p.from});
      segs.count++;
    }
    if (gapSpan.count) mm[gapFrom] = {gapTo, gapCrc, true, gapSpan};
    return {segs, true};
  }
};

BufferMaps::BufferMaps(uint32_t maps, size_t messages, uint32_t idOffset, uint32_t idStride)
    : s_(std::make_unique<State>(maps, messages, idOffset, idStride)) {}

BufferMaps::~BufferMaps() = default;

BufferMaps::Decomposed BufferMaps::send(uint32_t sender, const Message &m, uint32_t message) {
  return s_->send(s_->mem[sender], m, message);
}

void BufferMaps::receive(uint32_t receiver, const Message &m, Span segments) {
  if (m.bytes == 0 || segments.count == 0) return;
  Memory &mm = s_->mem[receiver];
  forget(mm, m.recvAddress, m.recvAddress + m.bytes);
  mm[m.recvAddress] = {m.recvAddress + m.bytes, m.crc, m.hashed, segments};
}

BufferMaps::Span BufferMaps::append(const Segment *first, size_t count) {
  Span out{s_->pool.size(), uint32_t(count)};
  s_->pool.insert(s_->pool.end(), first, first + count);
  return out;
}

void BufferMaps::prefetchOwn(const Message &m) const {
  s_->known.prefetch(
      State::ownHash(m.src, m.sendAddress, m.bytes, m.hashed ? m.crc : 0xffffffffu));
}

std::vector<Segment> &BufferMaps::pool() { return s_->pool; }
std::vector<Origin> &BufferMaps::origins() { return s_->origins; }

} // namespace cz::detect::detail
