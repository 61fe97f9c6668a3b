// windows.cpp: see windows.h.
#include "collectivize/windows.h"

#include <algorithm>

namespace cz::detect {

size_t TimeProfile::bucketOf(uint64_t time) const {
  if (buckets <= 1 || time <= first) return 0;
  if (time >= last) return buckets - 1;
  const unsigned __int128 span = (unsigned __int128)(last - first) + 1;
  return size_t((unsigned __int128)(time - first) * buckets / span);
}

void TimeProfile::add(const Message &m) {
  const size_t from = bucketOf(m.sendTime), to = bucketOf(std::max(m.recvTime, m.sendTime));
  inFlight[from] += 1;
  if (to + 1 < inFlight.size()) inFlight[to + 1] -= 1;
  sends[from] += 1;
}

TimeProfile emptyProfile(uint64_t first, uint64_t last, uint64_t messages) {
  // Enough buckets to find the idle stretches between a program's phases
  // (two per message), few enough to add up over processes in one
  // reduction and to cost little beside the messages (32 MiB at most).
  const uint64_t buckets = std::clamp<uint64_t>(messages * 2, 4096, uint64_t(1) << 21);
  TimeProfile p;
  p.first = first;
  p.last = std::max(first, last);
  p.buckets = size_t(buckets);
  p.inFlight.assign(buckets, 0);
  p.sends.assign(buckets, 0);
  return p;
}

size_t WindowPlan::windowOf(uint64_t time) const {
  const uint32_t bucket = uint32_t(geometry.bucketOf(time));
  return size_t(std::upper_bound(cuts.begin(), cuts.end(), bucket) - cuts.begin());
}

WindowPlan planWindows(TimeProfile profile, uint64_t windowMessages) {
  WindowPlan plan;
  const size_t buckets = profile.sends.size();
  // In place: the differences become the messages in flight in each
  // bucket; `before` (sends in buckets [0, b)) is built beside the sends.
  std::vector<int64_t> &inFlight = profile.inFlight;
  std::vector<uint64_t> before(buckets + 1, 0);
  for (size_t b = 0; b < buckets; b++) {
    if (b) inFlight[b] += inFlight[b - 1];
    before[b + 1] = before[b] + profile.sends[b];
  }
  if (windowMessages > 0 && before[buckets] > windowMessages) {
    // A stretch: buckets without sends at one in-flight level. Candidates
    // close a window of at least half the size; the best has the fewest
    // messages in flight (none, usually: the program computes), then the
    // most length.
    size_t start = 0; // the open window's first bucket
    struct Stretch {
      long middle = -1;
      int64_t level = 0;
      long length = 0;
      bool betterThan(const Stretch &o) const {
        return o.middle < 0 || level < o.level || (level == o.level && length >= o.length);
      }
    } best;
    bool overdue = false; // over size with no candidate: cut at the next stretch
    long from = -1;       // the current stretch's first bucket
    auto close = [&](size_t end) { // the stretch [from, end) ended
      Stretch s{from + (long(end) - from) / 2, inFlight[size_t(from)], long(end) - from};
      from = -1;
      if (overdue) {
        best = s;
      } else if (before[size_t(s.middle)] - before[start] >= windowMessages / 2 &&
                 s.betterThan(best)) {
        best = s;
      }
    };
    auto cut = [&]() {
      plan.cuts.push_back(uint32_t(best.middle));
      start = size_t(best.middle);
      best = {};
      overdue = false;
    };
    for (size_t b = 0; b < buckets; b++) {
      const bool empty = profile.sends[b] == 0;
      if (from >= 0 && (!empty || inFlight[b] != inFlight[size_t(from)])) {
        close(b);
        if (overdue) {
          cut();
          b = start; // rescan after the cut for the next window's stretches
          continue;
        }
      }
      if (empty) {
        if (from < 0) from = long(b);
        continue;
      }
      if (before[b + 1] - before[start] > windowMessages) {
        if (best.middle < 0) {
          overdue = true;
          continue;
        }
        cut();
        b = start;
      }
    }
  }
  profile.inFlight = {};
  profile.sends = {};
  plan.geometry = std::move(profile);
  return plan;
}

WindowPlan planWindows(const MessageTable &t, uint64_t windowMessages) {
  if (windowMessages == 0 || t.messages.size() <= windowMessages) {
    return WindowPlan{};
  }
  uint64_t first = UINT64_MAX, last = 0;
  for (const Message &m : t.messages) {
    first = std::min(first, m.sendTime);
    last = std::max(last, std::max(m.recvTime, m.sendTime));
  }
  TimeProfile p = emptyProfile(first, last, t.messages.size());
  for (const Message &m : t.messages) p.add(m);
  return planWindows(std::move(p), windowMessages);
}

WindowTable assembleWindow(const MessageTable &base, WindowParts parts,
                           const std::vector<std::pair<uint32_t, detail::Origin>> &origins,
                           uint64_t blockBytes) {
  WindowTable out;
  MessageTable &w = out.table;
  w.ranks = base.ranks;
  w.groups = base.groups;
  w.groupsByComm = base.groupsByComm;
  w.kept = std::move(parts.kept);
  const size_t n = parts.messages.size();
  if (blockBytes) {
    w.blocks.blockBytes = blockBytes;
    w.blocks.first.assign(n, 0);
    w.blocks.count.assign(n, 0);
    uint64_t at = 0;
    for (size_t k = 0; k < n && k < parts.blockCounts.size(); k++) {
      w.blocks.first[k] = at;
      w.blocks.count[k] = parts.blockCounts[k];
      at += parts.blockCounts[k];
    }
    w.blocks.crcs = std::move(parts.crcs);
  }
  // Origins numbered in the given order; each one's first message, when
  // the window has it, by its place here.
  detail::Provenance &p = out.provenance;
  std::vector<std::pair<uint32_t, uint32_t>> number(origins.size()); // (id, number)
  p.origins.reserve(origins.size());
  for (size_t k = 0; k < origins.size(); k++) {
    number[k] = {origins[k].first, uint32_t(k)};
    detail::Origin o = origins[k].second;
    auto it = std::lower_bound(parts.tableIndex.begin(), parts.tableIndex.end(),
                               uint64_t(o.firstMessage));
    o.firstMessage = it != parts.tableIndex.end() && *it == o.firstMessage
                         ? uint32_t(it - parts.tableIndex.begin())
                         : kNone;
    p.origins.push_back(o);
  }
  std::sort(number.begin(), number.end());
  p.segments.spans.reserve(n);
  size_t at = 0;
  for (size_t k = 0; k < n && k < parts.segmentCounts.size(); k++) {
    p.segments.spans.push_back({p.segments.pool.size(), parts.segmentCounts[k]});
    for (size_t i = at; i < at + parts.segmentCounts[k]; i++) {
      detail::Segment s = parts.segments[i];
      s.origin = std::lower_bound(number.begin(), number.end(), std::make_pair(s.origin, 0u))->second;
      p.segments.pool.push_back(s);
    }
    at += parts.segmentCounts[k];
  }
  p.verified = std::move(parts.verified);
  w.messages = std::move(parts.messages);
  return out;
}

WindowTable windowOf(const MessageTable &t, const detail::Provenance &pv, const WindowPlan &plan,
                     size_t window) {
  WindowParts parts;
  for (uint32_t i = 0; i < t.messages.size(); i++)
    if (plan.windowOf(t.messages[i].sendTime) == window) {
      parts.messages.push_back(t.messages[i]);
      parts.tableIndex.push_back(i);
    }
  for (const KeptBuffer &kb : t.kept)
    if (plan.windowOf(kb.time) == window) parts.kept.push_back(kb);
  for (uint64_t i : parts.tableIndex) {
    if (!t.blocks.blockBytes) break;
    const uint32_t count = t.blocks.has(uint32_t(i)) ? t.blocks.count[i] : 0;
    parts.blockCounts.push_back(count);
    const auto from = t.blocks.crcs.begin() + long(count ? t.blocks.first[i] : 0);
    parts.crcs.insert(parts.crcs.end(), from, from + count);
  }
  // The whole trace's origins are numbered in the serial replay's order
  // already: the window keeps theirs in id order.
  std::vector<std::pair<uint32_t, detail::Origin>> origins;
  if (pv.segments.spans.size() == t.messages.size()) {
    std::vector<uint32_t> ids;
    for (uint64_t i : parts.tableIndex) {
      const auto run = pv.segments[i];
      parts.segmentCounts.push_back(uint32_t(run.size()));
      parts.segments.insert(parts.segments.end(), run.begin(), run.end());
      parts.verified.push_back(i < pv.verified.size() ? pv.verified[i] : 0);
      for (const detail::Segment &s : run) ids.push_back(s.origin);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (uint32_t id : ids) origins.push_back({id, pv.origins[id]});
  }
  return assembleWindow(t, std::move(parts), origins, t.blocks.blockBytes);
}

} // namespace cz::detect
