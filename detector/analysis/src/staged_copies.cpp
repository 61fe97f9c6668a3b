// staged_copies.cpp: scatters sent through one temporary buffer and
// gathers received into one scratch buffer. Their messages all leave from
// (arrive at) one address, so tiling sees no layout, and a gather into
// scratch has a reduction's shape. The site database says which buffers
// stage another array's data (DetectOptions::stagedSites): at such a site,
// a root that sends distinct blocks to every other member once per round
// (receives one from every other member) is taken for the scatter
// (gather) the copy makes of it. The layout rests on the source's copy,
// which no message proves: ambiguous (kStagedCopy), with the copy named.
// A root that sends every block from a buffer of its own, an address its
// destination chooses (`sendbuf[i]`, `&a[i * n]` to rank i; receives
// likewise; the site database's "peer_indexed"), is taken the same way
// when the blocks tile no buffer (tiling, which runs first, takes those
// that do): ambiguous (kBufferPerPeer), MPI_Scatter (MPI_Gather) needing
// the blocks in one array.
#include <algorithm>
#include <map>
#include <set>

#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

const StagedSite *stagedAt(const DetectOptions &o, const Message &m, bool send) {
  if ((send ? m.sendSiteKind : m.recvSiteKind) != 0) return nullptr;
  auto it = o.stagedSites.find(send ? m.sendSite : m.recvSite);
  return it != o.stagedSites.end() && it->second.send == send ? &it->second : nullptr;
}

// One root's messages of a round at one staged site: one to (from) every
// other member, distinct data. Equal data everywhere would be a broadcast
// through a scratch buffer, or a reduction's equal partial results.
bool oneBlockPerMember(const MessageTable &t, const Group &g, uint32_t root,
                       const std::vector<uint32_t> &msgs, bool scatter) {
  if (msgs.size() + 1 != g.members.size() || rankIn(g, root) < 0) return false;
  std::set<uint32_t> others, crcs;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    uint32_t other = scatter ? m.dst : m.src;
    if (other == root || rankIn(g, other) < 0 || !others.insert(other).second) return false;
    crcs.insert(m.crc);
  }
  return msgs.size() < 2 || crcs.size() > 1;
}

// One round of a staged scatter (gather): blocks of one size, or of
// several (the last member taking the remainder: scatterv, gatherv, whose
// root's own count is never seen).
Instance stagedInstance(const MessageTable &t, const DetectOptions &o, uint32_t comm,
                        uint32_t root, bool scatter, const std::vector<uint32_t> &msgs) {
  const Group &g = *t.group(comm);
  Instance in;
  in.comm = comm;
  in.rootWorld = root;
  in.participants = g.members;
  std::sort(in.participants.begin(), in.participants.end());
  in.messages = msgs;
  std::sort(in.messages.begin(), in.messages.end());
  uint64_t n = t.messages[msgs.front()].bytes, total = 0;
  bool varies = false;
  std::set<std::string> copies, buffers;
  bool perPeer = false;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    varies |= m.bytes != n;
    total += m.bytes;
    in.counts.push_back({scatter ? m.dst : m.src, m.sendCount});
    const StagedSite &s = o.stagedSites.at(scatter ? m.sendSite : m.recvSite);
    copies.insert(s.copy);
    buffers.insert(s.buffer);
    perPeer |= s.perPeer;
  }
  std::sort(in.counts.begin(), in.counts.end());
  if (varies) {
    in.kind = scatter ? Kind::Scatterv : Kind::Gatherv;
    in.bytes = total;
  } else {
    in.kind = scatter ? Kind::Scatter : Kind::Gather;
    in.bytes = n * g.members.size();
    in.counts.clear();
  }
  auto join = [](const std::set<std::string> &v, const char *sep) {
    std::string out;
    for (const std::string &x : v) out += (out.empty() ? "" : sep) + x;
    return out;
  };
  std::string through = join(buffers, ", ");
  if (perPeer) {
    in.unproven = kBufferPerPeer;
    in.note = std::string("possible ") + kindName(in.kind) + (scatter ? " from " : " into ") +
              "a buffer per member (" + through + " at " + join(copies, ", ") + "): every block " +
              (scatter ? "left from" : "arrived in") + " a buffer of its own that the " +
              (scatter ? "destination" : "source") + " chooses, so the trace shows no one "
              "buffer's layout";
    return in;
  }
  in.unproven = kStagedCopy;
  in.note = std::string("possible ") + kindName(in.kind) + " staged through " + through + " (" +
            join(copies, "; ") + "): every block " + (scatter ? "left from " : "arrived in ") +
            through + ", so the trace shows no layout; the copy's offset follows the " +
            (scatter ? "destination" : "source");
  return in;
}

} // namespace

void findStagedCopies(const MessageTable &t, const DetectOptions &o,
                      const std::vector<uint32_t> &usable, std::vector<uint8_t> &claimed,
                      std::vector<Instance> &out) {
  if (o.stagedSites.empty())
    return;
  std::vector<uint32_t> candidates;
  for (uint32_t i : hashedCandidates(usable, claimed)) {
    const Message &m = t.messages[i];
    if (stagedAt(o, m, true) || stagedAt(o, m, false)) candidates.push_back(i);
  }
  // Rounds per pair without tag or size: codes tag by destination, and the
  // last member often gets the remainder (a scatterv).
  std::vector<Round> rounds = pairRounds(t, candidates, [](const Message &m) {
    return RoundKey{m.comm, 0, 0, m.sendType};
  });
  // (root, scatter?) -> the root's messages at staged sites, per round. A
  // root whose messages fail to form one block per member in any round is
  // no staged collective at all: a task farm's first round looks like a
  // scatter, its later ones do not.
  using Side = std::pair<uint32_t, bool>;
  std::map<Side, std::vector<std::pair<uint32_t, std::vector<uint32_t>>>> byRoot; // (comm, msgs)
  for (const Round &round : rounds) {
    std::map<Side, std::vector<uint32_t>> sides;
    for (uint32_t i : round.messages) {
      const Message &m = t.messages[i];
      if (stagedAt(o, m, true)) sides[{m.src, true}].push_back(i);
      if (stagedAt(o, m, false)) sides[{m.dst, false}].push_back(i);
    }
    for (auto &[key, msgs] : sides) byRoot[key].push_back({round.key.comm, std::move(msgs)});
  }
  // A buffer per member chosen by the peer is also how every member of an
  // alltoall (allgather) keeps its blocks: at such sites, a root is one
  // only when no other rank sends (receives) there.
  std::map<std::pair<uint64_t, bool>, std::set<uint32_t>> perPeerRoots; // (site, send) -> roots
  for (uint32_t i : candidates) {
    const Message &m = t.messages[i];
    if (const StagedSite *s = stagedAt(o, m, true); s && s->perPeer)
      perPeerRoots[{m.sendSite, true}].insert(m.src);
    if (const StagedSite *s = stagedAt(o, m, false); s && s->perPeer)
      perPeerRoots[{m.recvSite, false}].insert(m.dst);
  }
  auto sharedPerPeerSite = [&](uint32_t root, bool scatter, const std::vector<uint32_t> &msgs) {
    return std::any_of(msgs.begin(), msgs.end(), [&](uint32_t i) {
      const Message &m = t.messages[i];
      auto it = perPeerRoots.find({scatter ? m.sendSite : m.recvSite, scatter});
      return it != perPeerRoots.end() && it->second.size() > 1 && it->second.count(root);
    });
  };
  for (auto &[key, rounds] : byRoot) {
    const auto [root, scatter] = key;
    bool all = std::all_of(rounds.begin(), rounds.end(), [&, root = root, scatter = scatter](const auto &r) {
      return oneBlockPerMember(t, *t.group(r.first), root, r.second, scatter) &&
             !sharedPerPeerSite(root, scatter, r.second);
    });
    if (!all) continue;
    for (auto &[comm, msgs] : rounds) {
      // A message both a staged send's and a staged receive's: taken once.
      if (std::any_of(msgs.begin(), msgs.end(), [&](uint32_t i) { return claimed[i]; })) continue;
      out.push_back(stagedInstance(t, o, comm, root, scatter, msgs));
      for (uint32_t i : msgs) claimed[i] = 1;
    }
  }
}

} // namespace cz::detect::detail
