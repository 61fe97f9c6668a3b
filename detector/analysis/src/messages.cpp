// messages.cpp: see messages.h. Decoding is per rank (decodeRank), matching
// over all ranks (matchRecords): the parallel mode runs the first in many
// processes and the second on one.
#include "collectivize/messages.h"

#include "collectivize/heap.h"

#include <algorithm>
#include <unordered_map>

namespace cz::detect {
namespace {

struct QueueKey {
  uint32_t comm, src, dst, tag;
  bool operator==(const QueueKey &o) const {
    return comm == o.comm && src == o.src && dst == o.dst && tag == o.tag;
  }
};
struct QueueKeyHash {
  size_t operator()(const QueueKey &k) const {
    uint64_t h = (uint64_t(k.comm) << 32 | k.tag) * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t(k.src) << 32 | k.dst) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
    return size_t(h);
  }
};

// A record of one rank: RankRecords::sends[i] or ::receives[i].
struct Ref {
  uint32_t rank, i;
};
struct Queue {
  std::vector<Ref> sends; // posting order
  std::vector<Ref> recvs; // completion order
};

} // namespace

const Group *MessageTable::group(uint32_t comm) const {
  for (const Group &g : groups)
    if (g.comm == comm) return &g;
  return nullptr;
}

RankRecords decodeRank(const trace::Trace &tr, int r) {
  RankRecords out;
  out.rank = r;
  // Reserving for every event to be a send (or a receive) spares the
  // copies and page faults of growing vectors of big records; the pages
  // never written cost address space only.
  size_t bound = size_t(std::min<uint64_t>(tr.eventBound(r) + 16, uint64_t(1) << 26));
  out.sends.reserve(bound);
  out.receives.reserve(bound);
  adviseHugePages(out.sends);
  adviseHugePages(out.receives);
  std::unordered_map<uint64_t, uint32_t> posted; // irecv request -> post position
  uint32_t pos = 0;
  auto onEvent = [&](const trace::Event &e) {
    uint32_t here = pos++;
    out.events++;
    switch (e.kind) {
    case trace::EventKind::Send:
    case trace::EventKind::Isend: {
      if (e.kept && *e.kept) {
        out.kept.push_back({uint32_t(r), e.bytes, e.crc32.value_or(0), e.address.value_or(0),
                            e.site.value_or(0), e.siteKind.value_or(1), here});
        break;
      }
      out.sendCalls++;
      if (!e.peerWorld) {
        out.noPeer++;
        break;
      }
      Message m;
      m.src = uint32_t(r);
      m.dst = *e.peerWorld;
      m.comm = e.comm;
      m.tag = e.tag;
      m.bytes = e.bytes;
      m.hashed = e.crc32.has_value();
      if (!m.hashed) out.unhashedSends++;
      m.crc = e.crc32.value_or(0);
      m.prefix = e.prefix.value_or(0);
      m.sendAddress = e.address.value_or(0);
      m.sendCount = e.count.value_or(0);
      m.sendType = e.datatype.value_or(0);
      m.sendSite = e.site.value_or(0);
      m.sendSiteKind = e.siteKind.value_or(1);
      m.sendPos = here;
      m.sendTime = e.timestamp;
      out.sends.push_back(m);
      break;
    }
    case trace::EventKind::IrecvRequest:
      if (e.request) posted[*e.request] = here;
      break;
    case trace::EventKind::Recv:
    case trace::EventKind::Irecv: {
      out.receiveCalls++;
      if (!e.peerWorld) {
        out.noPeer++;
        break;
      }
      uint32_t post = here;
      if (e.kind == trace::EventKind::Irecv && e.request) {
        auto it = posted.find(*e.request);
        if (it != posted.end()) {
          post = it->second;
          posted.erase(it);
        }
      }
      out.receives.push_back({e.comm, *e.peerWorld, uint32_t(r), e.tag, post, here, e.timestamp,
                              e.address.value_or(0), e.site.value_or(0), e.count.value_or(0),
                              e.datatype.value_or(0), e.siteKind.value_or(1)});
      break;
    }
    case trace::EventKind::CollectiveEnd: {
      std::string name = trace::collectiveCallName(e.collectiveOp);
      if (!name.empty()) out.collectives[name]++;
      break;
    }
    default:
      break;
    }
    return true;
  };
  auto n = tr.forEachEvent(r, onEvent);
  if (!n) out.error = n.error().message();
  return out;
}

MessageTable matchRecords(const trace::Trace &tr, std::vector<RankRecords> ranks) {
  MessageTable t;
  t.ranks = tr.rankCount();
  for (const auto &[ref, c] : tr.definitions().comms) {
    Group g;
    g.comm = ref;
    g.name = c.name;
    if (!c.isSelf) g.members = c.members;
    t.groups.push_back(std::move(g));
  }
  // Queues point into the ranks' own records: the receive side is filled
  // in place and only matched messages are copied, once, into the table.
  // A queue per (communicator, sender, receiver, tag). Found through the
  // (sender, receiver) pair, which has few (communicator, tag) keys, when
  // the pairs fit a table; through a hash map otherwise.
  std::vector<Queue> queues;
  const uint64_t n = uint64_t(std::max(t.ranks, 0));
  const bool dense = n * n <= (uint64_t(1) << 22);
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> byPair(dense ? size_t(n * n) : 0);
  std::unordered_map<QueueKey, uint32_t, QueueKeyHash> byKey;
  auto queueOf = [&](const QueueKey &k) -> Queue & {
    if (dense && k.src < n && k.dst < n) {
      auto &v = byPair[size_t(uint64_t(k.src) * n + k.dst)];
      uint64_t ct = uint64_t(k.comm) << 32 | k.tag;
      for (auto &[key, q] : v)
        if (key == ct) return queues[q];
      v.push_back({ct, uint32_t(queues.size())});
    } else {
      auto [it, fresh] = byKey.try_emplace(k, uint32_t(queues.size()));
      if (!fresh) return queues[it->second];
    }
    queues.emplace_back();
    return queues.back();
  };
  std::vector<std::vector<uint8_t>> matched(ranks.size());
  uint64_t noPeer = 0;
  for (size_t r = 0; r < ranks.size(); r++) {
    RankRecords &rr = ranks[r];
    t.stats.events += rr.events;
    t.stats.sends += rr.sendCalls;
    t.stats.receives += rr.receiveCalls;
    t.stats.unhashedSends += rr.unhashedSends;
    noPeer += rr.noPeer;
    for (auto &[name, n] : rr.collectives) t.stats.collectives[name] += n;
    t.kept.insert(t.kept.end(), rr.kept.begin(), rr.kept.end());
    matched[r].assign(rr.sends.size(), 0);
    for (uint32_t i = 0; i < rr.sends.size(); i++) {
      const Message &m = rr.sends[i];
      queueOf({m.comm, m.src, m.dst, m.tag}).sends.push_back({uint32_t(r), i});
    }
    for (uint32_t i = 0; i < rr.receives.size(); i++) {
      const PostedReceive &rv = rr.receives[i];
      queueOf({rv.comm, rv.src, rv.dst, rv.tag}).recvs.push_back({uint32_t(r), i});
    }
    if (!rr.error.empty())
      t.warnings.push_back("rank " + std::to_string(rr.rank) + " skipped: " + rr.error);
  }
  if (noPeer)
    t.warnings.push_back(std::to_string(noPeer) +
                         " point-to-point records name a peer on an unknown communicator; "
                         "they were not matched");

  auto recvOf = [&](const Ref &x) -> const PostedReceive & { return ranks[x.rank].receives[x.i]; };
  for (Queue &q : queues) {
    // Receives match in posting order (a nonblocking one is posted before
    // it completes); completion order breaks ties.
    auto byPost = [&](const Ref &a, const Ref &b) { return recvOf(a).post < recvOf(b).post; };
    if (!std::is_sorted(q.recvs.begin(), q.recvs.end(), byPost))
      std::stable_sort(q.recvs.begin(), q.recvs.end(), byPost);
    size_t pairs = std::min(q.sends.size(), q.recvs.size());
    for (size_t i = 0; i < pairs; i++) {
      Message &m = ranks[q.sends[i].rank].sends[q.sends[i].i];
      const PostedReceive &rv = recvOf(q.recvs[i]);
      m.recvAddress = rv.address;
      m.recvCount = rv.count;
      m.recvType = rv.type;
      m.recvSite = rv.site;
      m.recvSiteKind = rv.siteKind;
      m.recvPos = rv.pos;
      m.recvTime = rv.time;
      matched[q.sends[i].rank][q.sends[i].i] = 1;
    }
    t.stats.unmatchedSends += q.sends.size() - pairs;
    t.stats.unmatchedReceives += q.recvs.size() - pairs;
  }
  queues.clear();
  byPair.clear();
  size_t total = 0;
  for (const auto &v : matched) total += size_t(std::count(v.begin(), v.end(), 1));
  t.messages.reserve(total);
  adviseHugePages(t.messages);
  for (size_t r = 0; r < ranks.size(); r++) {
    for (size_t i = 0; i < ranks[r].sends.size(); i++)
      if (matched[r][i]) t.messages.push_back(ranks[r].sends[i]);
    ranks[r] = RankRecords{}; // its memory is no longer needed
  }
  t.stats.matched = t.messages.size();
  if (t.stats.unmatchedSends || t.stats.unmatchedReceives)
    t.warnings.push_back(std::to_string(t.stats.unmatchedSends) + " sends and " +
                         std::to_string(t.stats.unmatchedReceives) +
                         " receives have no partner in the trace (incomplete ranks, or messages "
                         "never received); they were left out");
  return t;
}

trace::Result<MessageTable> matchMessages(const trace::Trace &tr,
                                          void (*progress)(int done, int total)) {
  std::vector<RankRecords> ranks;
  ranks.reserve(size_t(std::max(tr.rankCount(), 0)));
  for (int r = 0; r < tr.rankCount(); r++) {
    ranks.push_back(decodeRank(tr, r));
    if (progress) progress(r + 1, tr.rankCount());
  }
  return matchRecords(tr, std::move(ranks));
}

} // namespace cz::detect
