// counted_gather.cpp: a gather of counts followed by a gatherv of lists,
// received into one place at the root.
//
// A root that wants every member's list of variable length asks each
// member in turn for its count, then for that many records (often with
// tokens that pace the members), and consumes each list before the next
// arrives. The root keeps no array of the blocks, so tiling sees no
// layout; the counts, one integer from every member into one scalar, have
// a reduction's shape, and the lists, of other lengths, no collective's.
// What the trace does prove is that each member's first message was the
// length of its second: member q sent the root one integer v_q, then a
// message of k * v_q elements, with the same k for every member. That
// ties the two messages together as a count and its list, which a
// reduction's partial results never are.
//
// Taken as a gather to the root when, on one communicator, every member
// but the root sends such a pair from the same call sites, the same number
// of times, and no other member receives pairs from those sites (an
// exchange of counts then data among all members is an alltoallv, not
// this). Messages the root sent a member between two of its lists
// (tokens, go-aheads) are the gather's flow control and go with it.
// Always ambiguous (kScratchReceive): where the root keeps the blocks, if
// anywhere, only the source says.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "detect_internal.h"
#include "rank_activity.h"
#include "reduction_values.h"

namespace cz::detect::detail {
namespace {

constexpr uint64_t kMaxPerCount = 64; // elements per counted record, at most

struct CountedPair {
  uint32_t count = 0, list = 0; // message indices
  uint64_t perCount = 0;        // k: the list's elements per unit of the count
};

// The count a one-integer message carries, or 0 when it is not one.
uint64_t countValue(const Message &m) {
  Elem e = elemOf(m.sendType);
  if (e.bytes == 0 || e.isFloat || m.sendCount != 1 || m.bytes != uint64_t(e.bytes)) return 0;
  Values v = decode(m.prefix, m.bytes, e);
  return v.n == 1 && v.v[0] >= 1 ? uint64_t(v.v[0]) : 0;
}

// The pair's sites and multiplier, which every member of one gather shares.
using PairSites = std::tuple<uint32_t, uint64_t, uint64_t, uint64_t, uint64_t, uint8_t, uint8_t,
                             uint64_t>; // comm, 4 sites, 2 site kinds, k

PairSites sitesOf(const MessageTable &t, const CountedPair &p) {
  const Message &c = t.messages[p.count], &l = t.messages[p.list];
  return {c.comm, c.sendSite, c.recvSite, l.sendSite, l.recvSite,
          uint8_t(c.sendSiteKind | c.recvSiteKind << 2),
          uint8_t(l.sendSiteKind | l.recvSiteKind << 2), p.perCount};
}

// Consecutive messages from one member to one other, the first a count
// and the second k times as many elements. A message may be the list of
// one pair and the count of the next: unrelated small messages before a
// count must not hide it (the sites then sort the pairs out).
std::vector<CountedPair> countedPairs(const MessageTable &t, const std::vector<uint32_t> &cands) {
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> byPair;
  for (uint32_t i : cands) { // table order: by sender, then send position
    const Message &m = t.messages[i];
    byPair[{m.comm, m.src, m.dst}].push_back(i);
  }
  std::vector<CountedPair> out;
  for (const auto &[key, msgs] : byPair)
    for (size_t j = 0; j + 1 < msgs.size(); j++) {
      const Message &count = t.messages[msgs[j]], &list = t.messages[msgs[j + 1]];
      // Another call sends the list: one call sending twice is a loop of
      // one message (flags, tokens), whatever the values.
      if (count.sendSite == list.sendSite && count.sendSiteKind == list.sendSiteKind) continue;
      uint64_t v = countValue(count);
      uint64_t n = list.sendCount;
      if (v == 0 || n % v != 0 || n / v == 0 || n / v > kMaxPerCount) continue;
      out.push_back({msgs[j], msgs[j + 1], n / v});
    }
  return out;
}

// The root's messages that pace member q's pair: the one q received just
// before it sent its count (a token: q did nothing in between) and those
// it received between its count and its list (go-aheads).
void addFlowControl(const MessageTable &t, const RankActivity &activity,
                    const std::vector<uint8_t> &claimed, uint32_t root, const Message &count,
                    const Message &list, std::vector<uint32_t> &msgs) {
  uint32_t q = count.src;
  const std::vector<Receipt> &got = activity.receipts(q);
  auto fromRoot = [&](const Receipt &r) {
    const Message &m = t.messages[r.msg];
    return m.src == root && m.comm == count.comm && !claimed[r.msg];
  };
  size_t next = activity.firstReceiptAfter(q, count.sendPos);
  if (next > 0 && fromRoot(got[next - 1]) &&
      !activity.sentBetween(q, got[next - 1].pos, count.sendPos))
    msgs.push_back(got[next - 1].msg);
  for (size_t j = next; j < got.size() && got[j].pos < list.sendPos; j++)
    if (fromRoot(got[j])) msgs.push_back(got[j].msg);
}

} // namespace

void findCountedGathers(const MessageTable &t, const std::vector<uint32_t> &usable,
                        const RankActivity &activity, std::vector<uint8_t> &claimed,
                        std::vector<Instance> &out) {
  std::vector<CountedPair> pairs = countedPairs(t, hashedCandidates(usable, claimed));
  // sites -> root -> member -> its pairs in send order
  std::map<PairSites, std::map<uint32_t, std::map<uint32_t, std::vector<CountedPair>>>> bySites;
  for (const CountedPair &p : pairs) {
    const Message &c = t.messages[p.count];
    bySites[sitesOf(t, p)][c.dst][c.src].push_back(p);
  }
  for (const auto &[sites, roots] : bySites) {
    if (roots.size() != 1) continue; // several receivers: an exchange, not a gather
    const auto &[root, members] = *roots.begin();
    uint32_t comm = std::get<0>(sites);
    const Group &g = *t.group(comm);
    if (members.size() + 1 != g.members.size() || rankIn(g, root) < 0) continue;
    size_t rounds = members.begin()->second.size();
    bool even = std::all_of(members.begin(), members.end(),
                            [&](const auto &m) { return m.second.size() == rounds; });
    // Single elements only: a count of one and one value prove no length.
    bool someList = std::any_of(members.begin(), members.end(), [&](const auto &m) {
      return std::any_of(m.second.begin(), m.second.end(),
                         [&](const CountedPair &p) { return t.messages[p.list].sendCount > 1; });
    });
    if (!even || !someList) continue;
    for (size_t k = 0; k < rounds; k++) {
      bool taken = std::any_of(members.begin(), members.end(), [&](const auto &m) {
        return claimed[m.second[k].count] || claimed[m.second[k].list];
      });
      if (taken) continue; // pairs of other sites took a message of this round
      Instance in;
      in.kind = Kind::Gather;
      in.comm = comm;
      in.rootWorld = root;
      in.participants = g.members;
      std::sort(in.participants.begin(), in.participants.end());
      std::set<uint64_t> listPlaces;
      uint64_t elements = 0;
      for (const auto &member : members) {
        const CountedPair &p = member.second[k];
        const Message &c = t.messages[p.count], &l = t.messages[p.list];
        in.messages.push_back(p.count);
        in.messages.push_back(p.list);
        addFlowControl(t, activity, claimed, root, c, l, in.messages);
        listPlaces.insert(l.recvAddress);
        elements += l.sendCount;
        in.count = c.sendCount;
        in.bytes = c.bytes * g.members.size();
      }
      std::sort(in.messages.begin(), in.messages.end());
      in.messages.erase(std::unique(in.messages.begin(), in.messages.end()), in.messages.end());
      for (uint32_t i : in.messages) claimed[i] = 1;
      in.oneTag = false;
      in.unproven = kScratchReceive;
      in.note = "a gather of counts, then a gatherv of lists: every member sent the root one "
                "integer, then " + std::to_string(std::get<7>(sites)) +
                " times that many elements (" + std::to_string(elements) + " in all), " +
                (listPlaces.size() == 1 ? "all received into one place"
                                        : "received into places that tile no buffer") +
                ", so the trace shows no layout";
      out.push_back(std::move(in));
    }
  }
}

} // namespace cz::detect::detail
