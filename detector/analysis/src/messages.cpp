// messages.cpp: see messages.h.
#include "collectivize/messages.h"

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

struct Recv {
  uint32_t post, pos;
  uint64_t time, address, site;
  uint32_t count, type;
  uint8_t siteKind;
};
struct Queue {
  std::vector<uint32_t> sends; // indices into the send list, posting order
  std::vector<Recv> recvs;
};

} // namespace

const Group *MessageTable::group(uint32_t comm) const {
  for (const Group &g : groups)
    if (g.comm == comm) return &g;
  return nullptr;
}

trace::Result<MessageTable> matchMessages(const trace::Trace &tr,
                                          void (*progress)(int done, int total)) {
  MessageTable t;
  t.ranks = tr.rankCount();
  for (const auto &[ref, c] : tr.definitions().comms) {
    Group g;
    g.comm = ref;
    g.name = c.name;
    if (!c.isSelf) g.members = c.members;
    t.groups.push_back(std::move(g));
  }
  std::vector<Message> sends; // payload side filled, receive side later
  uint64_t declared = 0;      // events the definitions announce: about half are sends
  for (const auto &[ref, l] : tr.definitions().locations) declared += l.numberOfEvents;
  sends.reserve(size_t(std::min<uint64_t>(declared / 2 + 16, uint64_t(1) << 28)));
  std::unordered_map<QueueKey, Queue, QueueKeyHash> queues;
  uint64_t noPeer = 0;
  for (int r = 0; r < t.ranks; r++) {
    std::unordered_map<uint64_t, uint32_t> posted; // irecv request -> post position
    uint32_t pos = 0;
    auto onEvent = [&](const trace::Event &e) {
      uint32_t here = pos++;
      t.stats.events++;
      switch (e.kind) {
      case trace::EventKind::Send:
      case trace::EventKind::Isend: {
        if (e.kept && *e.kept) {
          t.kept.push_back({uint32_t(r), e.bytes, e.crc32.value_or(0), e.address.value_or(0),
                            e.site.value_or(0), e.siteKind.value_or(1), here});
          break;
        }
        t.stats.sends++;
        if (!e.peerWorld) {
          noPeer++;
          break;
        }
        Message m;
        m.src = uint32_t(r);
        m.dst = *e.peerWorld;
        m.comm = e.comm;
        m.tag = e.tag;
        m.bytes = e.bytes;
        m.hashed = e.crc32.has_value();
        if (!m.hashed) t.stats.unhashedSends++;
        m.crc = e.crc32.value_or(0);
        m.prefix = e.prefix.value_or(0);
        m.sendAddress = e.address.value_or(0);
        m.sendCount = e.count.value_or(0);
        m.sendType = e.datatype.value_or(0);
        m.sendSite = e.site.value_or(0);
        m.sendSiteKind = e.siteKind.value_or(1);
        m.sendPos = here;
        m.sendTime = e.timestamp;
        queues[{m.comm, m.src, m.dst, m.tag}].sends.push_back(uint32_t(sends.size()));
        sends.push_back(m);
        break;
      }
      case trace::EventKind::IrecvRequest:
        if (e.request) posted[*e.request] = here;
        break;
      case trace::EventKind::Recv:
      case trace::EventKind::Irecv: {
        t.stats.receives++;
        if (!e.peerWorld) {
          noPeer++;
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
        queues[{e.comm, *e.peerWorld, uint32_t(r), e.tag}].recvs.push_back(
            {post, here, e.timestamp, e.address.value_or(0), e.site.value_or(0),
             e.count.value_or(0), e.datatype.value_or(0), e.siteKind.value_or(1)});
        break;
      }
      case trace::EventKind::CollectiveEnd: {
        std::string name = trace::collectiveCallName(e.collectiveOp);
        if (!name.empty()) t.stats.collectives[name]++;
        break;
      }
      default:
        break;
      }
      return true;
    };
    auto n = tr.forEachEvent(r, onEvent);
    if (!n)
      t.warnings.push_back("rank " + std::to_string(r) + " skipped: " + n.error().message());
    if (progress) progress(r + 1, t.ranks);
  }
  if (noPeer)
    t.warnings.push_back(std::to_string(noPeer) +
                         " point-to-point records name a peer on an unknown communicator; "
                         "they were not matched");

  std::vector<uint8_t> matched(sends.size(), 0);
  for (auto &[key, q] : queues) {
    std::stable_sort(q.recvs.begin(), q.recvs.end(),
                     [](const Recv &a, const Recv &b) { return a.post < b.post; });
    size_t n = std::min(q.sends.size(), q.recvs.size());
    for (size_t i = 0; i < n; i++) {
      Message &m = sends[q.sends[i]];
      const Recv &rv = q.recvs[i];
      m.recvAddress = rv.address;
      m.recvCount = rv.count;
      m.recvType = rv.type;
      m.recvSite = rv.site;
      m.recvSiteKind = rv.siteKind;
      m.recvPos = rv.pos;
      m.recvTime = rv.time;
      matched[q.sends[i]] = 1;
    }
    t.stats.unmatchedSends += q.sends.size() - n;
    t.stats.unmatchedReceives += q.recvs.size() - n;
  }
  t.messages.reserve(sends.size());
  for (size_t i = 0; i < sends.size(); i++)
    if (matched[i]) t.messages.push_back(sends[i]);
  t.stats.matched = t.messages.size();
  if (t.stats.unmatchedSends || t.stats.unmatchedReceives)
    t.warnings.push_back(std::to_string(t.stats.unmatchedSends) + " sends and " +
                         std::to_string(t.stats.unmatchedReceives) +
                         " receives have no partner in the trace (incomplete ranks, or messages "
                         "never received); they were left out");
  return t;
}

} // namespace cz::detect
