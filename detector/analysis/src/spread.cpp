// spread.cpp: broadcasts of any shape, by following items.
//
// An item is a payload (CRC-32, bytes). The same payload can travel many
// times (a constant broadcast in a loop, or equal data from different
// roots), so its messages are split into instances by replaying them in
// time order: a send belongs to the instance its sender holds the item
// from (it received it there, or started it), unless the destination
// already has it in that instance, which starts a new instance with the
// sender as its root. In an instance, a root is a process
// that sends the item before receiving it; it is confirmed when the item
// reaches every other participant from it along time-respecting chains
// (each forward leaves a process after the item arrived there): the
// serial equivalent of the backward replay of the detection paper.
//
// A rank holds the item only while the buffer it has it in (where it
// received it, or where a root first sent it from) is not overwritten: a
// later receive into that range ends the holding. Synthetic or periodic
// data repeats the same payload in unrelated exchanges far apart in time
// (the bench's bcast of iteration 98 equals a ring block of iteration
// 2996); without this a stale holding joined them into one instance, or
// merged them as a "redundant root", and left spurious partial matches.
//
// Replies are not broadcasts: when a sender, between two of its sends of
// the item, receives a message from the next destination, it answers a
// request (a task farm's stop signal to whichever worker asks first); such
// instances are dropped, since MPI_Bcast could not replace them.
#include <algorithm>
#include <unordered_map>

#include "detect_internal.h"
#include "rank_activity.h"

namespace cz::detect::detail {
namespace {

struct ItemKey {
  uint32_t crc;
  uint64_t bytes;
  bool operator==(const ItemKey &o) const { return crc == o.crc && bytes == o.bytes; }
};
struct ItemHash {
  size_t operator()(const ItemKey &k) const {
    return size_t((uint64_t(k.crc) << 32 ^ k.bytes) * 0x9E3779B97F4A7C15ull);
  }
};

// Ranks reached from root over msgs (sorted by send time), and whether
// every participant is among them.
bool reachesAll(const MessageTable &t, const std::vector<uint32_t> &msgs, uint32_t root,
                const std::vector<uint32_t> &participants,
                std::unordered_map<uint32_t, uint32_t> &since) {
  since.clear();
  since[root] = 0; // the root has the item from the start
  // Two passes absorb send-time ties between causally ordered messages.
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i : msgs) {
      const Message &m = t.messages[i];
      auto s = since.find(m.src);
      if (s == since.end() || (m.src != root && m.sendPos < s->second)) continue;
      auto d = since.find(m.dst);
      if (d == since.end() || m.recvPos < d->second) since[m.dst] = m.recvPos;
    }
  for (uint32_t p : participants)
    if (!since.count(p)) return false;
  return true;
}

// Some sender answered a request from the next destination between two
// sends of the item (msgs sorted by send time).
bool looksLikeReplies(const MessageTable &t, const RankActivity &idx,
                      const std::vector<uint32_t> &msgs) {
  std::unordered_map<uint32_t, uint32_t> lastSend; // sender -> sendPos
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    auto it = lastSend.find(m.src);
    if (it != lastSend.end() && idx.receivedBetween(m.src, m.dst, m.comm, it->second, m.sendPos))
      return true;
    lastSend[m.src] = m.sendPos;
  }
  return false;
}

void analyzeInstance(const MessageTable &t, const DetectOptions &o, const RankActivity &idx,
                     std::vector<uint32_t> &msgs, std::vector<Instance> &out) {
  const Message &first = t.messages[msgs[0]];
  std::vector<uint32_t> participants;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    if (m.comm != first.comm) return; // one collective lives on one communicator
    participants.push_back(m.src);
    participants.push_back(m.dst);
  }
  std::sort(participants.begin(), participants.end());
  participants.erase(std::unique(participants.begin(), participants.end()), participants.end());
  if (int(participants.size()) < o.minGroup) return;
  std::sort(msgs.begin(), msgs.end(), [&](uint32_t a, uint32_t b) {
    return t.messages[a].sendTime < t.messages[b].sendTime;
  });
  if (looksLikeReplies(t, idx, msgs)) return;
  // Candidates: send the item before any receipt of it in this instance.
  std::unordered_map<uint32_t, uint32_t> firstSend, firstRecv;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    auto s = firstSend.emplace(m.src, m.sendPos);
    if (!s.second) s.first->second = std::min(s.first->second, m.sendPos);
    auto r = firstRecv.emplace(m.dst, m.recvPos);
    if (!r.second) r.first->second = std::min(r.first->second, m.recvPos);
  }
  Instance in;
  in.kind = Kind::Bcast;
  in.comm = first.comm;
  in.bytes = first.bytes;
  std::unordered_map<uint32_t, uint32_t> since;
  for (uint32_t p : participants) {
    auto s = firstSend.find(p);
    if (s == firstSend.end()) continue;
    auto r = firstRecv.find(p);
    if (r != firstRecv.end() && r->second < s->second) continue;
    if (!reachesAll(t, msgs, p, participants, since)) continue;
    if (in.rootWorld == kNone)
      in.rootWorld = p;
    else
      in.otherRoots.push_back(p);
  }
  if (in.rootWorld == kNone) return;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    in.oneTag &= m.tag == first.tag;
    if (m.src == in.rootWorld && (!in.rootAddress || m.sendPos < in.rootFirstSend)) {
      in.rootAddress = m.sendAddress;
      in.rootFirstSend = m.sendPos;
      in.count = m.sendCount;
    }
  }
  in.participants = std::move(participants);
  in.messages = msgs;
  out.push_back(std::move(in));
}

// Where a rank holds the item: the instance, and the buffer range it has
// it in since a position of its events. `next` is the first of the rank's
// receipts not yet checked against the range (checks resume there, so a
// holding's receipts are scanned once); a root's is looked up from
// `since` when first needed (most roots never send the item again).
struct Holding {
  static constexpr size_t kFromSince = SIZE_MAX;
  uint32_t instance = 0;
  uint64_t address = 0, bytes = 0;
  size_t next = kFromSince;
  uint32_t since = 0;
  bool overwritten = false;
  bool own = false; // a root's: where it first sent the item from
};

// Has a receive of `rank` before position `before` (from h.next on)
// written into h's range?
bool overwritten(const MessageTable &t, const RankActivity &idx, uint32_t rank, Holding &h,
                 uint32_t before) {
  if (h.overwritten) return true;
  const std::vector<Receipt> &v = idx.receipts(rank);
  if (h.next == Holding::kFromSince) h.next = idx.firstReceiptAfter(rank, h.since);
  for (; h.next < v.size() && v[h.next].pos < before; h.next++) {
    const Message &r = t.messages[v[h.next].msg];
    if (r.bytes && r.recvAddress < h.address + h.bytes && h.address < r.recvAddress + r.bytes)
      return h.overwritten = true;
  }
  return false;
}

// Instances of one item's messages (see the header comment).
// instanceOf: scratch indexed by message (a send's entry is written before
// its receive reads it, so it needs no clearing between items).
std::vector<std::vector<uint32_t>> splitInstances(const MessageTable &t, const RankActivity &idx,
                                                  const std::vector<uint32_t> &msgs,
                                                  std::vector<uint32_t> &instanceOf) {
  std::vector<Step> steps = timeOrder(t, msgs);
  std::vector<std::vector<uint32_t>> instances;
  std::vector<std::unordered_map<uint32_t, uint8_t>> has; // per instance: ranks holding it
  std::vector<uint32_t> rootOf, parent;                   // union-find over instances
  std::unordered_map<uint32_t, Holding> holds;             // rank -> where it holds the item
  std::vector<uint32_t> &of = instanceOf;                  // message -> instance
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const Step &st : steps) {
    const Message &m = t.messages[st.msg];
    if (!st.isSend) {
      uint32_t j = find(of[st.msg]);
      auto h = holds.find(m.dst);
      if (h != holds.end() && rootOf[find(h->second.instance)] == m.dst &&
          find(h->second.instance) != j && !has[find(h->second.instance)].count(rootOf[j]) &&
          !overwritten(t, idx, m.dst, h->second, m.recvPos)) {
        // A root receiving its own data from another root: both started
        // the same broadcast (a redundant message); one instance. Not when
        // the other root had received the item from this root's instance
        // before: then it started a later occurrence of the same payload.
        uint32_t i = find(h->second.instance);
        parent[i] = j;
        for (auto &[r, v] : has[i]) has[j][r] = v;
      }
      holds[m.dst] = {j, m.recvAddress, m.bytes, idx.receiptOf(st.msg) + 1};
      has[j][m.dst] = 1;
      continue;
    }
    auto h = holds.find(m.src);
    uint32_t in;
    // A root sends its broadcast from one buffer: the same payload sent
    // from another one is a new occurrence (rank 0's ring block equal to
    // the bcast it just started, in the bench).
    if (h == holds.end() || has[find(h->second.instance)].count(m.dst) ||
        (h->second.own && h->second.address != m.sendAddress) ||
        overwritten(t, idx, m.src, h->second, m.sendPos)) {
      in = uint32_t(instances.size());
      instances.emplace_back();
      has.emplace_back();
      rootOf.push_back(m.src);
      parent.push_back(in);
      has[in][m.src] = 1;
      holds[m.src] = {in, m.sendAddress, m.bytes, Holding::kFromSince, m.sendPos, false, true};
    } else {
      in = find(h->second.instance);
    }
    instances[in].push_back(st.msg);
    of[st.msg] = in;
  }
  // Merged instances: messages go to their representative.
  std::vector<std::vector<uint32_t>> merged(instances.size());
  for (uint32_t i = 0; i < instances.size(); i++) {
    uint32_t r = find(i);
    merged[r].insert(merged[r].end(), instances[i].begin(), instances[i].end());
  }
  instances.clear();
  for (auto &v : merged)
    if (!v.empty()) instances.push_back(std::move(v));
  return instances;
}

} // namespace

void findSpreads(const MessageTable &t, const DetectOptions &o,
                 const std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  RankActivity idx(t);
  std::unordered_map<ItemKey, std::vector<uint32_t>, ItemHash> items;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i] || !m.hashed || m.bytes == 0) continue;
    items[{m.crc, m.bytes}].push_back(i);
  }
  std::vector<uint32_t> instanceOf(t.messages.size(), 0);
  for (auto &[key, msgs] : items) {
    if (int(msgs.size()) + 1 < o.minGroup) continue;
    std::vector<std::vector<uint32_t>> instances = splitInstances(t, idx, msgs, instanceOf);
    for (auto &inst : instances) analyzeInstance(t, o, idx, inst, out);
  }
}

} // namespace cz::detect::detail
