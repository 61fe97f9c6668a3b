// messages.cpp: see messages.h. Decoding is per rank (decodeRank), matching
// over all ranks (matchRecords), or per receiver (matchQueues: the parallel
// mode matches each rank's receives on the process that owns it).
#include "collectivize/messages.h"

#include "collectivize/causal_order.h"
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

// Records of one queue: indices of sends (posting order) and receives
// (completion order) in the records of all ranks.
struct Queue {
  std::vector<uint32_t> sends, recvs;
};

} // namespace

void Group::indexMembers() {
  rankOfWorld.clear();
  uint32_t span = 0;
  for (uint32_t w : members) span = std::max(span, w + 1);
  rankOfWorld.assign(span, -1);
  for (size_t i = members.size(); i-- > 0;) rankOfWorld[members[i]] = int32_t(i); // first wins
}

const Group *MessageTable::group(uint32_t comm) const {
  // (a few groups, the usual case: scanned, which costs less than a search)
  if (!groupsByComm.empty() && groups.size() > 8) {
    auto it = std::lower_bound(groupsByComm.begin(), groupsByComm.end(), std::make_pair(comm, 0u));
    if (it != groupsByComm.end() && it->first == comm && it->second < groups.size() &&
        groups[it->second].comm == comm)
      return &groups[it->second];
  }
  for (const Group &g : groups)
    if (g.comm == comm) return &g;
  return nullptr;
}

void MessageTable::indexGroups() {
  groupsByComm.clear();
  for (uint32_t k = 0; k < groups.size(); k++) groupsByComm.push_back({groups[k].comm, k});
  std::sort(groupsByComm.begin(), groupsByComm.end());
  // The first group of a communicator, as the scan finds it.
  groupsByComm.erase(std::unique(groupsByComm.begin(), groupsByComm.end(),
                                 [](const auto &a, const auto &b) { return a.first == b.first; }),
                     groupsByComm.end());
}

namespace {

// Appends rank r's records to `out` (which may hold other ranks' records
// before them) and adds its counts; returns the reading error, if any.
std::string decodeInto(const trace::Trace &tr, int r, RankRecords &out) {
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
                            e.site.value_or(0), e.siteKind.value_or(1), here, e.timestamp});
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
      m.sendCaller = e.caller.value_or(0);
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
                              e.datatype.value_or(0), e.siteKind.value_or(1),
                              e.anySource.value_or(0) != 0, e.caller.value_or(0)});
      break;
    }
    case trace::EventKind::Leave:
      if (e.newComm && *e.newComm != trace::kCommNull && e.site) {
        CommCreation c;
        c.comm = *e.newComm, c.rank = uint32_t(r);
        c.site = *e.site, c.siteKind = e.siteKind.value_or(1);
        c.hasColor = e.color.has_value(), c.color = e.color.value_or(0);
        out.created.push_back(c);
      }
      break;
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
  return n ? std::string() : n.error().message();
}

// Reserving for every event to be a send (or a receive) spares the copies
// and page faults of growing vectors of big records; the pages never
// written cost address space only.
void reserveFor(RankRecords &out, uint64_t events) {
  size_t bound = size_t(std::min<uint64_t>(events + 16, uint64_t(1) << 28));
  out.sends.reserve(bound);
  out.receives.reserve(bound);
  adviseHugePages(out.sends);
  adviseHugePages(out.receives);
}

} // namespace

RankRecords decodeRank(const trace::Trace &tr, int r) {
  RankRecords out;
  out.rank = r;
  reserveFor(out, tr.eventBound(r));
  out.error = decodeInto(tr, r, out);
  return out;
}

namespace {

// Every rank's records, rank after rank, in one RankRecords (its sends in
// (rank, send position) order, which is the table's order): the serial mode
// decodes straight into it, so the matched sends become the table without
// a copy.
struct AllRecords {
  RankRecords all;
  std::vector<std::pair<int, std::string>> errors; // (rank, why), in rank order
};

// Each group's creation: the record of its lowest recording member (ranks
// come in order), and whether every member recorded the same color.
void nameCreations(MessageTable &t, const std::vector<CommCreation> &created) {
  // (a program that makes a communicator per iteration has many of both)
  std::unordered_map<uint32_t, Group *> byComm;
  for (Group &g : t.groups) byComm.emplace(g.comm, &g);
  for (const CommCreation &c : created) {
    auto it = byComm.find(c.comm);
    if (it == byComm.end()) continue;
    Group &g = *it->second;
    if (!g.createdKnown) {
      g.created = c;
      g.createdKnown = true;
      g.colorAgreed = c.hasColor;
    } else if (g.colorAgreed && (!c.hasColor || c.color != g.created.color)) {
      g.colorAgreed = false;
    }
  }
}

// The table without its messages: groups, counts, kept buffers, and the
// warnings about unreadable ranks and peerless records (before the one
// about unmatched messages, which finishTable adds).
MessageTable startTable(const trace::Trace &tr, RankRecords &rr,
                        std::vector<std::pair<int, std::string>> &errors) {
  MessageTable t;
  t.ranks = tr.rankCount();
  for (const auto &[ref, c] : tr.definitions().comms) {
    Group g;
    g.comm = ref;
    g.name = c.name;
    if (!c.isSelf) g.members = c.members;
    // A world-sized index per communicator, unless there are too many.
    if (uint64_t(tr.definitions().comms.size()) * uint64_t(std::max(t.ranks, 1)) <= (1u << 22))
      g.indexMembers();
    t.groups.push_back(std::move(g));
  }
  t.indexGroups();
  t.stats.events = rr.events;
  t.stats.sends = rr.sendCalls;
  t.stats.receives = rr.receiveCalls;
  t.stats.unhashedSends = rr.unhashedSends;
  t.stats.collectives = std::move(rr.collectives);
  t.kept = std::move(rr.kept);
  nameCreations(t, rr.created);
  for (auto &[rank, why] : errors)
    t.warnings.push_back("rank " + std::to_string(rank) + " skipped: " + why);
  if (rr.noPeer)
    t.warnings.push_back(std::to_string(rr.noPeer) +
                         " point-to-point records name a peer on an unknown communicator; "
                         "they were not matched");
  return t;
}

void finishTable(MessageTable &t, std::vector<Message> matched, QueueCounts unmatched) {
  t.messages = std::move(matched);
  t.stats.matched = t.messages.size();
  t.stats.unmatchedSends = unmatched.unmatchedSends;
  t.stats.unmatchedReceives = unmatched.unmatchedReceives;
  if (t.stats.unmatchedSends || t.stats.unmatchedReceives)
    t.warnings.push_back(std::to_string(t.stats.unmatchedSends) + " sends and " +
                         std::to_string(t.stats.unmatchedReceives) +
                         " receives have no partner in the trace (incomplete ranks, or messages "
                         "never received); they were left out");
}

// Adds one rank's counts, kept buffers and error to the totals.
void addCounts(RankRecords &all, RankRecords &rr,
               std::vector<std::pair<int, std::string>> &errors) {
  all.kept.insert(all.kept.end(), rr.kept.begin(), rr.kept.end());
  all.created.insert(all.created.end(), rr.created.begin(), rr.created.end());
  all.events += rr.events, all.sendCalls += rr.sendCalls, all.receiveCalls += rr.receiveCalls;
  all.unhashedSends += rr.unhashedSends, all.noPeer += rr.noPeer;
  for (auto &[name, count] : rr.collectives) all.collectives[name] += count;
  if (!rr.error.empty()) errors.push_back({rr.rank, rr.error});
}

MessageTable matchAll(const trace::Trace &tr, AllRecords &a) {
  RankRecords &rr = a.all;
  MessageTable t = startTable(tr, rr, a.errors);
  std::vector<uint8_t> matched;
  QueueCounts unmatched = matchQueues(t.ranks, rr.sends, rr.receives, matched);
  rr.receives = {};
  // The matched sends, in place and in order, are the table.
  size_t w = 0;
  for (size_t i = 0; i < rr.sends.size(); i++)
    if (matched[i]) {
      if (w != i) rr.sends[w] = rr.sends[i];
      w++;
    }
  rr.sends.resize(w);
  finishTable(t, std::move(rr.sends), unmatched);
  // Clocks of several nodes: times that contradict the matching are raised.
  orderCausally(t);
  return t;
}

} // namespace

QueueCounts matchQueues(int ranks, std::vector<Message> &sends,
                        const std::vector<PostedReceive> &receives, std::vector<uint8_t> &matched) {
  // Queues hold indices of the records: the receive side is filled into
  // the sends in place.
  // A queue per (communicator, sender, receiver, tag). Found through the
  // (sender, receiver) pair, which has few (communicator, tag) keys, when
  // the pairs fit a table; through a hash map otherwise.
  std::vector<Queue> queues;
  const uint64_t n = uint64_t(std::max(ranks, 0));
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
  for (size_t i = 0; i < sends.size(); i++) {
    const Message &m = sends[i];
    queueOf({m.comm, m.src, m.dst, m.tag}).sends.push_back(uint32_t(i));
  }
  for (size_t i = 0; i < receives.size(); i++) {
    const PostedReceive &rv = receives[i];
    queueOf({rv.comm, rv.src, rv.dst, rv.tag}).recvs.push_back(uint32_t(i));
  }
  QueueCounts counts;
  matched.assign(sends.size(), 0);
  for (Queue &q : queues) {
    // Receives match in posting order (a nonblocking one is posted before
    // it completes); completion order breaks ties.
    auto byPost = [&](uint32_t x, uint32_t y) { return receives[x].post < receives[y].post; };
    if (!std::is_sorted(q.recvs.begin(), q.recvs.end(), byPost))
      std::stable_sort(q.recvs.begin(), q.recvs.end(), byPost);
    size_t pairs = std::min(q.sends.size(), q.recvs.size());
    for (size_t i = 0; i < pairs; i++) {
      Message &m = sends[q.sends[i]];
      const PostedReceive &rv = receives[q.recvs[i]];
      m.recvAddress = rv.address;
      m.recvCount = rv.count;
      m.recvType = rv.type;
      m.recvSite = rv.site;
      m.recvSiteKind = rv.siteKind;
      m.recvAnySource = rv.anySource;
      m.recvCaller = rv.caller;
      m.recvPos = rv.pos;
      m.recvTime = rv.time;
      matched[q.sends[i]] = 1;
    }
    counts.unmatchedSends += q.sends.size() - pairs;
    counts.unmatchedReceives += q.recvs.size() - pairs;
  }
  return counts;
}

MessageTable assembleTable(const trace::Trace &tr, std::vector<RankRecords> summaries,
                           std::vector<Message> matched, QueueCounts unmatched) {
  RankRecords all;
  std::vector<std::pair<int, std::string>> errors;
  for (RankRecords &rr : summaries) addCounts(all, rr, errors);
  MessageTable t = startTable(tr, all, errors);
  finishTable(t, std::move(matched), unmatched);
  return t;
}

MessageTable matchRecords(const trace::Trace &tr, std::vector<RankRecords> ranks) {
  AllRecords a;
  size_t sends = 0, receives = 0;
  for (const RankRecords &rr : ranks) sends += rr.sends.size(), receives += rr.receives.size();
  a.all.sends.reserve(sends);
  a.all.receives.reserve(receives);
  adviseHugePages(a.all.sends);
  adviseHugePages(a.all.receives);
  for (RankRecords &rr : ranks) {
    RankRecords &all = a.all;
    all.sends.insert(all.sends.end(), rr.sends.begin(), rr.sends.end());
    all.receives.insert(all.receives.end(), rr.receives.begin(), rr.receives.end());
    addCounts(all, rr, a.errors);
    rr = RankRecords{}; // its memory is no longer needed
  }
  return matchAll(tr, a);
}

trace::Result<MessageTable> matchMessages(const trace::Trace &tr,
                                          void (*progress)(int done, int total)) {
  AllRecords a;
  uint64_t events = 0;
  for (int r = 0; r < tr.rankCount(); r++) events += tr.eventBound(r);
  reserveFor(a.all, events);
  for (int r = 0; r < tr.rankCount(); r++) {
    std::string why = decodeInto(tr, r, a.all);
    if (!why.empty()) a.errors.push_back({r, why});
    if (progress) progress(r + 1, tr.rankCount());
  }
  return matchAll(tr, a);
}

} // namespace cz::detect
