// scratch_exchange.cpp: an exchange in which every member sends each
// other member a block of its own, and receives them all into one scratch
// place, one after the other, using each before the next arrives (a phase
// loop that unpacks or accumulates every block: the Parallel Research
// Kernels' transpose). Each message is its sender's own data for its
// receiver, which is an alltoall's post-condition at the wire; where the
// receiver keeps each block no message shows, and a receiver that adds the
// blocks up in that place (a linear reduce_scatter) sends the same
// messages. So the match is ambiguous (kScratchReceive), reduce_scatter
// its other kind, and it never gets a patch.
//
// A member's blocks must leave through one call and arrive through one
// (a loop over the peers): several calls that together reach every rank
// are several neighbour exchanges at a process count small enough for
// every rank to be every other's neighbour (NPB SP at four ranks).
//
// Runs after the rules that explain such rounds better: Bruck's exchange
// at three ranks reaches every pair once, through one scratch buffer, and
// its later messages forward blocks that arrived earlier (block flows,
// bruck shape); a message carrying bytes another rank contributed (the
// provenance replay) is no sender's own block, and its round is left.
#include <algorithm>
#include <map>

#include "detect_internal.h"
#include "receive_layout.h"

namespace cz::detect::detail {
namespace {

// Every member sent all its blocks of the round through one call and
// received them all through one (a loop over the peers): a round whose
// blocks leave a member from several calls is several exchanges that
// happen to reach every rank at few ranks (the faces of a multi-partition
// grid, the line solves along x, y and z, each with one neighbour).
bool oneCallPerSide(const MessageTable &t, const std::vector<uint32_t> &round) {
  std::map<uint32_t, std::pair<uint64_t, uint8_t>> sendOf, recvOf;
  for (uint32_t i : round) {
    const Message &m = t.messages[i];
    auto s = sendOf.emplace(m.src, std::make_pair(m.sendSite, m.sendSiteKind));
    if (s.first->second != std::make_pair(m.sendSite, m.sendSiteKind)) return false;
    auto r = recvOf.emplace(m.dst, std::make_pair(m.recvSite, m.recvSiteKind));
    if (r.first->second != std::make_pair(m.recvSite, m.recvSiteKind)) return false;
  }
  return true;
}

} // namespace

void findScratchExchanges(const MessageTable &t, const std::vector<uint32_t> &usable,
                          const std::function<const Provenance &()> &provenance,
                          std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  // Without the tag: phase loops tag by phase (or by source).
  auto keyOf = [](const Message &m) { return RoundKey{m.comm, 0, m.bytes, 0}; };
  std::vector<uint32_t> candidates = hashedCandidates(usable, claimed);
  std::vector<Round> rounds = pairRounds(t, withWideMembers(t, candidates, keyOf), keyOf);
  for (const Round &round : rounds) {
    const Group &g = *t.group(round.key.comm);
    const size_t p = g.members.size();
    if (round.messages.size() < p * (p - 1)) continue;
    if (std::any_of(round.messages.begin(), round.messages.end(), [&](uint32_t i) { return claimed[i]; }))
      continue;
    FullExchange full = fullExchange(t, g, round.messages);
    if (!full.found || !full.recvScratch || full.sameData) continue;
    if (!oneCallPerSide(t, round.messages)) continue;
    const Provenance &pv = provenance();
    if (std::any_of(round.messages.begin(), round.messages.end(),
                    [&](uint32_t i) {
                      CarriedOrigins c = carriedOrigins(t, pv, i);
                      return !c.replayed || c.others; // unknown, or no sender's own block
                    }))
      continue;
    Instance in;
    in.kind = Kind::Alltoall;
    in.comm = round.key.comm;
    in.bytes = round.key.bytes * p;
    in.direct = true;
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    for (uint32_t i : round.messages)
      if (t.messages[i].src != t.messages[i].dst) in.messages.push_back(i);
    for (uint32_t i : round.messages) claimed[i] = 1;
    in.recvLayout = "scratch";
    in.sendLayout = full.send == ReceiveLayout::NotObserved ? "scratch" : layoutName(full.send);
    in.unproven = kScratchReceive;
    in.otherKinds = {Kind::ReduceScatter};
    in.note = "every member sent each other member a block of its own, and every member received "
              "them all into one place, one after the other: each was used before the next "
              "arrived, copied out (an alltoall, MPI_Alltoall needing the blocks in one array in "
              "rank order) or combined (a reduce_scatter)";
    out.push_back(std::move(in));
  }
}

} // namespace cz::detect::detail
