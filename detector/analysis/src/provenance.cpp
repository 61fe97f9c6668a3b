// provenance.cpp: see provenance.h.
#include "provenance.h"

#include <zlib.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "flat_index.h"
#include "node_pool.h"

namespace cz::detect::detail {
namespace {

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

using Span = SegmentLists::Span;

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

struct Replayer {
  const MessageTable &t;
  Provenance pv;
  NodePool nodes; // of the maps in mem (declared first: it outlives them)
  std::vector<Memory> mem;
  Unshift unshift;
  // Own data (rank, address, bytes, CRC or none) -> origin; the keys are
  // the origins themselves.
  HashedIndex known;

  std::vector<Segment> &pool;
  std::vector<Span> &spans;

  explicit Replayer(const MessageTable &table)
      : t(table), pool(pv.segments.pool), spans(pv.segments.spans) {
    mem.reserve(size_t(table.ranks));
    for (int r = 0; r < table.ranks; r++) mem.emplace_back(PoolAllocator<Memory::value_type>(nodes));
    spans.resize(t.messages.size());
    pool.reserve(t.messages.size() + 16);
    known = HashedIndex(t.messages.size() / 2 + 16);
    pv.origins.reserve(t.messages.size() + 16); // at most one per message and gap
    pv.verified.assign(t.messages.size(), 0);
  }

  static uint64_t ownHash(uint32_t rank, uint64_t addr, uint64_t bytes, uint32_t keyCrc) {
    uint64_t h = (uint64_t(rank) << 32 | keyCrc) * 0x9E3779B97F4A7C15ull;
    h ^= (addr + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return mixBits(h ^ (bytes * 0x165667B19E3779F9ull));
  }

  uint32_t origin(uint32_t rank, uint64_t addr, uint64_t bytes, uint32_t crc, bool crcKnown,
                  uint32_t msg) {
    uint32_t keyCrc = crcKnown ? crc : 0xffffffffu;
    uint64_t h = ownHash(rank, addr, bytes, keyCrc);
    auto [id, fresh] = known.insert(h, uint32_t(pv.origins.size()), [&](uint32_t o) {
      const Origin &og = pv.origins[o];
      return og.rank == rank && og.address == addr && og.bytes == bytes &&
             (og.crcKnown ? og.crc : 0xffffffffu) == keyCrc;
    });
    if (fresh) pv.origins.push_back({rank, crc, addr, bytes, msg, crcKnown});
    return id;
  }

  // The slot a send would take as its sender's own data (the index is
  // visited at random), fetched while earlier steps run.
  void prefetchOwn(uint32_t i) const {
    const Message &m = t.messages[i];
    known.prefetch(ownHash(m.src, m.sendAddress, m.bytes, m.hashed ? m.crc : 0xffffffffu));
  }

  // The whole message is the sender's own data.
  void own(uint32_t i) {
    const Message &m = t.messages[i];
    uint32_t o = origin(m.src, m.sendAddress, m.bytes, m.crc, m.hashed, i);
    spans[i] = {pool.size(), 1};
    pool.push_back({o, 0, m.bytes});
    pv.verified[i] = m.hashed;
    Memory &mm = mem[m.src];
    forget(mm, m.sendAddress, m.sendAddress + m.bytes);
    mm[m.sendAddress] = {m.sendAddress + m.bytes, m.crc, m.hashed, spans[i]};
  }

  void send(uint32_t i) {
    const Message &m = t.messages[i];
    if (m.bytes == 0) return;
    Memory &mm = mem[m.src];
    uint64_t a = m.sendAddress, b = a + m.bytes;
    auto it = mm.upper_bound(a);
    if (it != mm.begin()) --it;
    // Inside one known piece: forwarding it, or a slice of it.
    if (it != mm.end() && it->first <= a && it->second.end >= b) {
      const Piece &p = it->second;
      if (it->first == a && p.end == b) {
        if (p.crcKnown && m.hashed && p.crc != m.crc) return own(i); // changed in place
        spans[i] = p.segs;
        pv.verified[i] = p.crcKnown && m.hashed;
        return;
      }
      spans[i] = slice(pool, p, a - it->first, b - it->first);
      return; // a slice: by address only
    }
    if (!m.hashed) return own(i);
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
    if (gaps > 1 || (gaps == 1 && parts.size() == 1)) return own(i);
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
      if (total != m.crc) return own(i); // the pieces were changed before sending
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
      uint32_t o = origin(m.src, p.from, p.to - p.from, gapCrc, true, i);
      gapSpan = {pool.size(), 1};
      gapFrom = p.from, gapTo = p.to;
      pool.push_back({o, 0, p.to - p.from});
      segs.count++;
    }
    if (gapSpan.count) mm[gapFrom] = {gapTo, gapCrc, true, gapSpan};
    spans[i] = segs;
    pv.verified[i] = 1;
  }

  void receive(uint32_t i) {
    const Message &m = t.messages[i];
    if (m.bytes == 0 || spans[i].count == 0) return;
    Memory &mm = mem[m.dst];
    forget(mm, m.recvAddress, m.recvAddress + m.bytes);
    mm[m.recvAddress] = {m.recvAddress + m.bytes, m.crc, m.hashed, spans[i]};
  }
};

} // namespace

Provenance traceProvenance(const MessageTable &t) {
  Replayer r(t);
  // Sends and receive completions in time order; a send before the
  // receive of the same message (equal times), and per rank in event order.
  // 16 bytes a step (the sort moves them): the rank and position that
  // break ties of equal times are read from the message, ties being rare.
  struct Step {
    uint64_t time;
    uint32_t msg;
    bool isSend;
  };
  std::vector<Step> steps;
  steps.reserve(t.messages.size() * 2);
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    steps.push_back({m.sendTime, i, true});
    steps.push_back({std::max(m.recvTime, m.sendTime), i, false});
  }
  auto rankOf = [&](const Step &s) { return s.isSend ? t.messages[s.msg].src : t.messages[s.msg].dst; };
  auto posOf = [&](const Step &s) {
    return s.isSend ? t.messages[s.msg].sendPos : t.messages[s.msg].recvPos;
  };
  std::sort(steps.begin(), steps.end(), [&](const Step &a, const Step &b) {
    if (a.time != b.time) return a.time < b.time;
    if (rankOf(a) == rankOf(b)) return posOf(a) < posOf(b);
    return a.isSend && !b.isSend;
  });
  // Messages and own-data slots are fetched some steps ahead: the steps
  // visit both at random.
  const size_t ahead = 8;
  for (size_t k = 0; k < steps.size(); k++) {
    if (k + 2 * ahead < steps.size()) __builtin_prefetch(&t.messages[steps[k + 2 * ahead].msg]);
    if (k + ahead < steps.size() && steps[k + ahead].isSend) r.prefetchOwn(steps[k + ahead].msg);
    const Step &s = steps[k];
    if (s.isSend)
      r.send(s.msg);
    else
      r.receive(s.msg);
  }
  return std::move(r.pv);
}

} // namespace cz::detect::detail
