// varying_tiling.cpp: gathers and scatters whose members contribute
// different counts (MPI_Gatherv, MPI_Scatterv; direct MPI_Alltoallv and
// MPI_Allgatherv).
//
// Messages between a pair on a communicator are numbered per (communicator,
// tag, datatype), whatever their size; the k-th ones form a round. A
// member that receives exactly one message of the round from every other
// member, of sizes that are not all equal, into one buffer where the blocks
// follow each other in rank order (rank q's block ends where rank q+1's
// begins), is the root of a gatherv; the root's own block is the gap the
// others leave (its size unseen when the root is first or last: then the
// root's block is unproven, as for a gather; and the root does only that
// in the round: one that also sends to the others exchanges, as a halo
// does). Sends from one buffer in the
// same layout: a scatterv. When every member of the round receives that
// way, it is one exchange of every member's blocks with every other: an
// alltoallv (direct: site evidence tells a neighbour exchange, which at a
// few ranks reaches every rank, from one over all ranks); when each member
// sent every other the same block (one buffer, length and CRC), an
// allgatherv. Rounds in which
// some but not all members qualify are no collective. Equal sizes are left
// to tiling.cpp.
#include <algorithm>
#include <map>
#include <set>

#include "detect_internal.h"
#include "payload_strength.h"

namespace cz::detect::detail {
namespace {

struct Block {
  int pos;      // the other member's rank in the group
  uint32_t msg;
  uint64_t address, bytes;
};

// The root's side of a round (all its messages sent, or all received):
// the blocks in rank order when they tile one buffer with varying sizes.
bool tilesVarying(const MessageTable &t, const Group &g, uint32_t root,
                  const std::vector<uint32_t> &msgs, bool send, std::vector<Block> &blocks) {
  blocks.clear();
  int rootPos = rankIn(g, root);
  if (rootPos < 0 || msgs.size() + 1 != g.members.size()) return false;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    int pos = rankIn(g, send ? m.dst : m.src);
    if (pos < 0 || pos == rootPos || m.bytes == 0) return false;
    blocks.push_back({pos, i, send ? m.sendAddress : m.recvAddress, m.bytes});
  }
  std::sort(blocks.begin(), blocks.end(), [](const Block &a, const Block &b) { return a.pos < b.pos; });
  bool varies = false;
  for (size_t k = 0; k < blocks.size(); k++) {
    if (k && blocks[k].pos == blocks[k - 1].pos) return false; // one block per member
    varies |= blocks[k].bytes != blocks[0].bytes;
    if (k == 0) continue;
    uint64_t end = blocks[k - 1].address + blocks[k - 1].bytes;
    bool acrossRoot = blocks[k - 1].pos < rootPos && blocks[k].pos > rootPos;
    if (acrossRoot ? blocks[k].address < end : blocks[k].address != end) return false;
  }
  return varies;
}

void emitRooted(const MessageTable &t, const Group &g, uint32_t comm, uint32_t root,
                const std::vector<Block> &blocks, bool send, std::vector<uint8_t> &claimed,
                std::vector<Instance> &out) {
  Instance in;
  in.kind = send ? Kind::Scatterv : Kind::Gatherv;
  in.comm = comm;
  in.rootWorld = root;
  in.participants = g.members;
  std::sort(in.participants.begin(), in.participants.end());
  int rootPos = rankIn(g, root);
  uint64_t total = 0;
  for (const Block &b : blocks) {
    total += b.bytes;
    in.counts.push_back({g.members[size_t(b.pos)], t.messages[b.msg].sendCount});
  }
  // The root's block: the gap between its neighbours' blocks.
  for (size_t k = 1; k < blocks.size(); k++)
    if (blocks[k - 1].pos < rootPos && blocks[k].pos > rootPos) {
      uint64_t gap = blocks[k].address - (blocks[k - 1].address + blocks[k - 1].bytes);
      total += gap;
      const Message &m = t.messages[blocks[k - 1].msg];
      uint64_t elem = m.sendCount ? m.bytes / m.sendCount : 0;
      if (elem) in.counts.push_back({root, uint32_t(gap / elem)});
    }
  std::sort(in.counts.begin(), in.counts.end());
  in.bytes = total;
  markRootBlock(in, send ? Kind::Scatter : Kind::Gather, rootPos, g.members.size());
  std::string layout = std::string("blocks of different counts ") +
                       (send ? "sent from" : "received into") +
                       " one buffer, one after the other in rank order";
  in.note = in.note.empty() ? layout : layout + "; " + in.note;
  for (const Block &b : blocks) claimed[b.msg] = 1, in.messages.push_back(b.msg);
  std::sort(in.messages.begin(), in.messages.end());
  out.push_back(std::move(in));
}

// An alltoallv in which every member sends the same block to every other
// (one buffer, one length, one CRC): an allgatherv. The blocks' sizes
// already vary from member to member (the receivers' tiling says so) and
// tile each receiver's buffer in rank order, so the displacements are the
// same on every rank. Equal CRCs of a constant fill, or of a few bytes,
// do not prove the data the same: unproven; but a few bytes of each member
// that differ from every other member's (three or more), sent the same way
// as the longer blocks, are one exchange's blocks, not values equal by
// chance (root_families.cpp clears small_value so for a ring).
bool sameBlockToAll(const MessageTable &t,
                    const std::map<uint32_t, std::vector<uint32_t>> &bySender,
                    PayloadStrength &strength, Instance &in) {
  std::set<uint32_t> blockCrcs;
  for (auto &[sender, msgs] : bySender) {
    const Message &first = t.messages[msgs[0]];
    for (uint32_t i : msgs) {
      const Message &m = t.messages[i];
      if (m.sendAddress != first.sendAddress || m.bytes != first.bytes || m.crc != first.crc ||
          !m.hashed)
        return false;
    }
    blockCrcs.insert(first.crc);
  }
  bool distinctBlocks = bySender.size() >= 3 && blockCrcs.size() == bySender.size();
  for (auto &[sender, msgs] : bySender) {
    Strength s = strength.of(t.messages[msgs[0]]);
    if (s == Strength::Fill) in.unproven |= kPayloadFill;
    if (s == Strength::Small && !distinctBlocks) in.unproven |= kSmallValue;
  }
  return true;
}

void varyingPass(const MessageTable &t, const std::vector<uint32_t> &candidates,
                 std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  PayloadStrength strength;
  auto keyOf = [](const Message &m) { return RoundKey{m.comm, m.tag, 0, m.sendType}; };
  // A round whose sizes do not vary is passed over below; where every
  // message of a key has one size, none of its rounds can vary, and the
  // key is not numbered into rounds at all (most keys of most traces).
  std::vector<Round> rounds = pairRounds(t, withSeveralSizes(t, candidates, keyOf), keyOf);
  std::vector<Block> blocks;
  for (Round &round : rounds) {
    const Group &g = *t.group(round.key.comm);
    // Most rounds move blocks of one size, or too few for any member to
    // hear from every other: nothing to tell apart here (cheap, before
    // the maps).
    uint64_t firstBytes = 0;
    size_t open = 0;
    bool varies = false;
    for (uint32_t i : round.messages)
      if (!claimed[i]) {
        if (open++ == 0) firstBytes = t.messages[i].bytes;
        varies |= t.messages[i].bytes != firstBytes;
      }
    if (!varies || open + 1 < g.members.size()) continue;
    std::map<uint32_t, std::vector<uint32_t>> bySender, byReceiver;
    for (uint32_t i : round.messages) {
      if (claimed[i]) continue;
      bySender[t.messages[i].src].push_back(i);
      byReceiver[t.messages[i].dst].push_back(i);
    }
    // Every member receiving its blocks in rank order: one alltoallv.
    size_t receivers = 0;
    for (auto &[root, msgs] : byReceiver) receivers += tilesVarying(t, g, root, msgs, false, blocks);
    if (receivers == g.members.size()) {
      Instance in;
      in.kind = Kind::Alltoallv;
      in.comm = round.key.comm;
      in.direct = true;
      in.participants = g.members;
      std::sort(in.participants.begin(), in.participants.end());
      in.note = "every member received one block of a varying count from every other member, "
                "into one buffer in rank order";
      if (sameBlockToAll(t, bySender, strength, in)) {
        for (auto &[sender, msgs] : bySender)
          in.counts.push_back({sender, t.messages[msgs[0]].sendCount});
        std::sort(in.counts.begin(), in.counts.end());
        for (const Match::MemberCount &mc : in.counts) // `count`: the first member's
          if (mc.rank == g.members[0]) in.count = mc.count;
        in.kind = Kind::Allgatherv;
        in.note = "every member sent one block of a count of its own to every other member, each "
                  "received into one buffer in rank order";
      }
      for (auto &[root, msgs] : byReceiver)
        for (uint32_t i : msgs) claimed[i] = 1, in.messages.push_back(i), in.bytes += t.messages[i].bytes;
      std::sort(in.messages.begin(), in.messages.end());
      out.push_back(std::move(in));
      continue;
    }
    for (int side = 0; side < 2; side++) {
      bool send = side == 1;
      std::vector<std::pair<uint32_t, std::vector<Block>>> found;
      for (auto &[root, msgs] : send ? bySender : byReceiver)
        if (tilesVarying(t, g, root, msgs, send, blocks)) found.push_back({root, blocks});
      if (found.size() != 1) continue; // several roots at once: no rooted collective
      // A gatherv's root only receives in the round, a scatterv's only
      // sends: a member that also sends to the others while it receives
      // theirs is exchanging (a halo), not collecting.
      if ((send ? byReceiver : bySender).count(found[0].first)) continue;
      emitRooted(t, g, round.key.comm, found[0].first, found[0].second, send, claimed, out);
    }
  }
}

} // namespace

void findVaryingTilings(const MessageTable &t, const DetectOptions &o,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::vector<uint32_t> candidates;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i] || m.src == m.dst) continue;
    const Group *g = t.group(m.comm);
    if (g && int(g->members.size()) >= o.minGroup) candidates.push_back(i);
  }
  varyingPass(t, candidates, claimed, out);
}

} // namespace cz::detect::detail
