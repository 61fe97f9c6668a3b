// block_flows.cpp: alltoall of any shape, from per-block CRCs.
//
// A trace made with COLLECTIVIZE_TRACE_BLOCK_BYTES=n has the CRC of every
// n-byte block of the sends that hold several (MessageTable::blocks; a
// send of exactly n bytes is one block). Each block is then an item:
// replaying the messages in time order, a block a process sends continues
// the journey of a block with that CRC it received and has not sent on
// since (the latest such), else it starts a new journey there (its
// origin). A journey ends where its last message took it.
//
// Alltoall(G): for every ordered pair (p, q) of distinct members a journey
// from p ends at q; instance k takes the k-th journey of every pair (in
// the order they started). Confirmed when, in the instance,
//   - p's P-1 blocks are distinct (distinct CRCs: else which block went
//     where is not known),
//   - every message carries only blocks of the instance's journeys,
//   - at every member it comes after the previous instance (so the k-th
//     journeys of different pairs cannot come from different occurrences).
// That is the post-condition (p's distinct blocks each end at their own
// destination q) however they travelled: directly (pairwise), or packed
// with others and forwarded (Bruck: about P/2 blocks per message, copied
// into a pack buffer at every hop, or sent with a derived datatype). The
// layout of the user's buffers is not seen when the blocks were copied
// out of them, and the note says so.
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "collectivize_trace_format.h"
#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

struct Journey {
  uint32_t crc = 0;
  uint32_t origin = 0, holder = 0; // world ranks
  uint32_t comm = 0;
  bool oneComm = true;
  std::vector<uint32_t> messages; // in the order it travelled
};

} // namespace

void findBlockAlltoalls(const MessageTable &t, const DetectOptions &o,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  const BlockCrcs &bc = t.blocks;
  const uint64_t n = bc.blockBytes;
  if (n == 0) return;
  std::vector<uint32_t> msgs;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i] || !m.hashed || m.src == m.dst) continue;
    const Group *g = t.group(m.comm);
    if (!g || int(g->members.size()) < o.minGroup) continue;
    if (bc.has(i) || m.bytes == n) msgs.push_back(i);
  }
  if (msgs.empty()) return;
  auto blocksOf = [&](uint32_t i, std::vector<uint32_t> &crcs) {
    crcs.clear();
    if (bc.has(i))
      crcs.assign(bc.crcs.begin() + int64_t(bc.first[i]),
                  bc.crcs.begin() + int64_t(bc.first[i] + bc.count[i]));
    else
      crcs.push_back(t.messages[i].crc);
  };

  // Replay: which journeys each message carries, block by block.
  std::vector<Journey> journeys;
  std::unordered_map<uint32_t, std::vector<uint32_t>> carried; // message -> journeys
  std::unordered_map<uint64_t, std::vector<uint32_t>> held;    // rank << 32 | crc -> journeys
  std::vector<uint32_t> crcs;
  for (const Step &s : timeOrder(t, msgs)) {
    const Message &m = t.messages[s.msg];
    if (s.isSend) {
      blocksOf(s.msg, crcs);
      std::vector<uint32_t> &mine = carried[s.msg];
      for (uint32_t crc : crcs) {
        std::vector<uint32_t> &h = held[uint64_t(m.src) << 32 | crc];
        uint32_t j;
        if (!h.empty()) {
          j = h.back();
          h.pop_back();
        } else {
          j = uint32_t(journeys.size());
          journeys.push_back({crc, m.src, m.src, m.comm, true, {}});
        }
        Journey &jr = journeys[j];
        jr.oneComm = jr.oneComm && jr.comm == m.comm;
        jr.messages.push_back(s.msg);
        mine.push_back(j);
      }
    } else {
      for (uint32_t j : carried[s.msg]) {
        journeys[j].holder = m.dst;
        held[uint64_t(m.dst) << 32 | journeys[j].crc].push_back(j);
      }
    }
  }

  // Journeys per communicator and (origin, destination), in start order.
  std::map<uint32_t, std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>>> byPair;
  for (uint32_t j = 0; j < journeys.size(); j++) {
    const Journey &jr = journeys[j];
    if (!jr.oneComm || jr.origin == jr.holder) continue;
    byPair[jr.comm][{jr.origin, jr.holder}].push_back(j);
  }
  std::vector<uint8_t> inInstance(journeys.size(), 0);
  std::vector<uint32_t> first(size_t(t.ranks)), last(size_t(t.ranks)), previousEnd(size_t(t.ranks));
  for (auto &[comm, pairs] : byPair) {
    std::fill(previousEnd.begin(), previousEnd.end(), 0);
    bool previous = false;
    const Group &g = *t.group(comm);
    const size_t p = g.members.size();
    if (pairs.size() != p * (p - 1)) continue;
    bool members = true;
    size_t rounds = SIZE_MAX;
    for (auto &[pq, js] : pairs) {
      members = members && rankIn(g, pq.first) >= 0 && rankIn(g, pq.second) >= 0;
      rounds = std::min(rounds, js.size());
    }
    if (!members) continue;
    for (size_t k = 0; k < rounds; k++) {
      std::vector<uint32_t> js;
      std::map<uint32_t, std::vector<uint32_t>> crcsOf; // origin -> its blocks' CRCs
      for (auto &[pq, list] : pairs) {
        js.push_back(list[k]);
        crcsOf[pq.first].push_back(journeys[list[k]].crc);
      }
      bool distinct = true;
      for (auto &[origin, v] : crcsOf) {
        std::sort(v.begin(), v.end());
        distinct = distinct && std::adjacent_find(v.begin(), v.end()) == v.end();
      }
      if (!distinct) continue;
      for (uint32_t j : js) inInstance[j] = 1;
      std::vector<uint32_t> mine;
      for (uint32_t j : js) mine.insert(mine.end(), journeys[j].messages.begin(), journeys[j].messages.end());
      std::sort(mine.begin(), mine.end());
      mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      bool own = true; // every block of every message is one of the instance's
      for (uint32_t i : mine) {
        own = own && !claimed[i];
        for (uint32_t j : carried[i]) own = own && inInstance[j];
      }
      for (uint32_t j : js) inInstance[j] = 0;
      if (!own) continue;
      // Where the instance starts and ends at each member (event positions).
      std::fill(first.begin(), first.end(), UINT32_MAX);
      std::fill(last.begin(), last.end(), 0);
      for (uint32_t i : mine) {
        const Message &m = t.messages[i];
        first[m.src] = std::min(first[m.src], m.sendPos), last[m.src] = std::max(last[m.src], m.sendPos);
        first[m.dst] = std::min(first[m.dst], m.recvPos), last[m.dst] = std::max(last[m.dst], m.recvPos);
      }
      bool after = true;
      for (uint32_t w : g.members)
        if (w < first.size()) after = after && (!previous || first[w] > previousEnd[w]);
      if (!after) continue;
      previous = true;
      for (uint32_t w : g.members)
        if (w < last.size()) previousEnd[w] = last[w];
      Instance in;
      in.kind = Kind::Alltoall;
      in.comm = comm;
      in.participants = g.members;
      std::sort(in.participants.begin(), in.participants.end());
      in.bytes = n * p;
      size_t longest = 0;
      for (uint32_t j : js) longest = std::max(longest, journeys[j].messages.size());
      const Message &first = t.messages[mine[0]];
      if (first.sendType == CZ_TRACE_TYPE_DERIVED || !first.sendCount ||
          uint64_t(first.sendCount) * n % first.bytes) {
        in.count = n, in.blockBytesAsType = true;
      } else {
        in.count = uint64_t(first.sendCount) * n / first.bytes;
      }
      in.note = "blocks of " + std::to_string(n) +
                " bytes followed one by one (traced with COLLECTIVIZE_TRACE_BLOCK_BYTES): each "
                "member's distinct blocks reach every other member";
      if (longest > 1)
        in.note += ", packed several to a message and forwarded up to " +
                   std::to_string(longest) + " times (Bruck-style)";
      in.note += "; the layout of the user's buffers is not observed";
      for (uint32_t i : mine) claimed[i] = 1;
      in.messages = std::move(mine);
      out.push_back(std::move(in));
    }
  }
}

} // namespace cz::detect::detail
