// closed_shift.cpp: see closed_shift.h.
#include "closed_shift.h"

#include <algorithm>
#include <set>
#include <utility>

namespace cz::detect::detail {

bool rootClosesShift(const MessageTable &t, const std::vector<uint32_t> &msgs, uint32_t rootWorld) {
  using Site = std::pair<uint64_t, uint8_t>;
  std::set<Site> sendSites, recvSites;
  std::set<uint32_t> tags, senders, receivers;
  uint32_t comm = t.messages[msgs.at(0)].comm;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    sendSites.insert({m.sendSite, m.sendSiteKind});
    recvSites.insert({m.recvSite, m.recvSiteKind});
    tags.insert(m.tag);
    senders.insert(m.src);
    receivers.insert(m.dst);
  }
  // The table is ordered by sender: the root's own sends are one run.
  auto bySender = [](const Message &m, uint32_t src) { return m.src < src; };
  auto first = std::lower_bound(t.messages.begin(), t.messages.end(), rootWorld, bySender);
  for (auto it = first; it != t.messages.end() && it->src == rootWorld; ++it) {
    const Message &m = *it;
    bool leaf = senders.count(m.dst) && !receivers.count(m.dst);
    if (m.comm == comm && leaf && tags.count(m.tag) &&
        sendSites.count({m.sendSite, m.sendSiteKind}) && recvSites.count({m.recvSite, m.recvSiteKind}))
      return true;
  }
  return false;
}

} // namespace cz::detect::detail
