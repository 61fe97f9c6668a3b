// replay_process.cpp: see replay_process.h.
#include "replay_process.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace cz::detect::parallel {
namespace {

using cz::detect::detail::Segment;
using cz::detect::detail::receiveKey;
using cz::detect::detail::sendKey;

template <class T>
void put(std::vector<char> &out, const T &v) {
  const char *p = reinterpret_cast<const char *>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

} // namespace

ReplayProcess::ReplayProcess(const ReplayInput &in)
    : in_(in),
      maps_(uint32_t(in_.ranks.size()), in_.sent.size() + in_.received.size(), uint32_t(in_.me),
            uint32_t(in_.procs)) {
  const uint32_t procs = uint32_t(in_.procs);
  auto local = [&](uint32_t world) { return world / procs; };
  steps_.reserve(in_.sent.size() + in_.received.size());
  for (uint32_t i = 0; i < in_.sent.size(); i++) steps_.push_back({sendKey(in_.sent[i]), true, i});
  for (uint32_t i = 0; i < in_.received.size(); i++)
    steps_.push_back({receiveKey(in_.received[i]), false, i});
  // ReplayKey orders by rank only after time; here rank comes first.
  std::sort(steps_.begin(), steps_.end(), [](const Step &a, const Step &b) {
    if (a.key.rank != b.key.rank) return a.key.rank < b.key.rank;
    return a.key < b.key;
  });
  cursor_.assign(in_.ranks.size(), 0);
  end_.assign(in_.ranks.size(), 0);
  for (const Step &s : steps_) end_[local(s.key.rank)]++;
  size_t at = 0;
  for (size_t r = 0; r < in_.ranks.size(); r++) cursor_[r] = at, at += end_[r], end_[r] = at;
  for (size_t r = in_.ranks.size(); r-- > 0;) ready_.push_back(uint32_t(r));
  sentSpan_.resize(in_.sent.size());
  verified_.assign(in_.sent.size(), 0);
  arrival_.resize(in_.received.size());
  hasArrived_.assign(in_.received.size(), 0);
  waiter_.assign(in_.received.size(), kNone);
  outbox_.resize(size_t(in_.procs));
}

void ReplayProcess::arrived(uint32_t slot, BufferMaps::Span segments) {
  arrival_[slot] = segments;
  hasArrived_[slot] = 1;
  if (waiter_[slot] != kNone) ready_.push_back(waiter_[slot]), waiter_[slot] = kNone;
}

void ReplayProcess::sendStep(uint32_t local, uint32_t idx) {
  const Message &m = in_.sent[idx];
  BufferMaps::Decomposed d = maps_.send(local, m, in_.sentIndex[idx]);
  sentSpan_[idx] = d.segments;
  verified_[idx] = d.verified;
  if (m.bytes == 0) return; // its receive needs nothing
  const int q = int(m.dst % uint32_t(in_.procs));
  if (q == in_.me) return arrived(in_.sentSlot[idx], d.segments);
  std::vector<char> &out = outbox_[size_t(q)];
  put(out, in_.sentSlot[idx]);
  put(out, d.segments.count);
  const Segment *first = maps_.pool().data() + d.segments.at;
  const char *p = reinterpret_cast<const char *>(first);
  out.insert(out.end(), p, p + d.segments.count * sizeof(Segment));
  recordsSent++;
}

size_t ReplayProcess::run(size_t budget) {
  size_t ran = 0;
  while (ran < budget && !ready_.empty()) {
    uint32_t r = ready_.back();
    ready_.pop_back();
    bool blocked = false;
    while (cursor_[r] < end_[r] && ran < budget) {
      const Step &s = steps_[cursor_[r]];
      if (s.send) {
        sendStep(r, s.idx);
      } else {
        const Message &m = in_.received[s.idx];
        if (m.bytes != 0) {
          if (!hasArrived_[s.idx]) {
            waiter_[s.idx] = r; // arrived() makes it ready again
            blocked = true;
            break;
          }
          maps_.receive(r, m, arrival_[s.idx]);
        }
      }
      cursor_[r]++;
      ran++;
    }
    if (blocked) continue;
    if (cursor_[r] == end_[r]) done_++;
    else ready_.push_back(r); // out of budget
  }
  return ran;
}

std::vector<char> ReplayProcess::takeRecords(int q) {
  std::vector<char> out;
  out.swap(outbox_[size_t(q)]);
  return out;
}

bool ReplayProcess::deliver(const char *bytes, size_t size) {
  size_t at = 0;
  while (at < size) {
    uint32_t slot = 0, count = 0;
    if (size - at < 2 * sizeof(uint32_t)) return false;
    std::memcpy(&slot, bytes + at, sizeof slot);
    std::memcpy(&count, bytes + at + sizeof slot, sizeof count);
    at += 2 * sizeof(uint32_t);
    if (slot >= in_.received.size() || hasArrived_[slot] || (size - at) / sizeof(Segment) < count)
      return false;
    std::vector<Segment> segs(count);
    std::memcpy(segs.data(), bytes + at, count * sizeof(Segment));
    at += count * sizeof(Segment);
    arrived(slot, maps_.append(segs.data(), segs.size()));
    recordsReceived++;
  }
  return true;
}

ReplayPart ReplayProcess::result() {
  ReplayPart p;
  p.sentIndex = in_.sentIndex;
  p.verified = verified_;
  p.segmentCounts.reserve(sentSpan_.size());
  const std::vector<Segment> &pool = maps_.pool();
  for (const BufferMaps::Span &s : sentSpan_) {
    p.segmentCounts.push_back(s.count);
    p.segments.insert(p.segments.end(), pool.begin() + ptrdiff_t(s.at),
                      pool.begin() + ptrdiff_t(s.at + s.count));
  }
  p.origins = maps_.origins();
  return p;
}

bool assembleProvenance(const MessageTable &t, std::vector<ReplayPart> parts,
                        cz::detect::detail::Provenance &out, std::string &why) {
  const size_t procs = parts.size(), n = t.messages.size();
  // Every process's origins in one list; first[p]: where p's start.
  std::vector<size_t> first(procs + 1, 0);
  for (size_t p = 0; p < procs; p++) first[p + 1] = first[p] + parts[p].origins.size();
  std::vector<cz::detect::detail::Origin> all;
  all.reserve(first[procs]);
  for (ReplayPart &part : parts) {
    for (const cz::detect::detail::Origin &o : part.origins)
      if (o.firstMessage >= n) {
        why = "an origin names a message the table does not have";
        return false;
      }
    all.insert(all.end(), part.origins.begin(), part.origins.end());
  }
  std::vector<uint32_t> number = cz::detect::detail::serialOriginNumbers(all, t);
  out = {};
  out.origins.resize(all.size());
  for (size_t k = 0; k < all.size(); k++) out.origins[number[k]] = all[k];
  auto renumber = [&](uint32_t id, uint32_t &to) {
    size_t p = id % procs, k = id / procs;
    if (k >= parts[p].origins.size()) return false;
    to = number[first[p] + k];
    return true;
  };
  out.segments.spans.assign(n, {});
  out.verified.assign(n, 0);
  std::vector<uint8_t> seen(n, 0);
  for (ReplayPart &part : parts) {
    size_t at = 0;
    if (part.segmentCounts.size() != part.sentIndex.size() ||
        part.verified.size() != part.sentIndex.size()) {
      why = "a replay part is malformed";
      return false;
    }
    for (size_t j = 0; j < part.sentIndex.size(); j++) {
      uint32_t i = part.sentIndex[j], count = part.segmentCounts[j];
      if (i >= n || seen[i] || part.segments.size() - at < count) {
        why = "a replay part does not fit the table";
        return false;
      }
      seen[i] = 1;
      out.verified[i] = part.verified[j];
      out.segments.spans[i] = {out.segments.pool.size(), count};
      for (size_t k = at; k < at + count; k++) {
        cz::detect::detail::Segment s = part.segments[k];
        if (!renumber(s.origin, s.origin)) {
          why = "a segment names an unknown origin";
          return false;
        }
        out.segments.pool.push_back(s);
      }
      at += count;
    }
  }
  if (std::count(seen.begin(), seen.end(), 0) != 0) {
    why = "messages without replay results";
    return false;
  }
  return true;
}

} // namespace cz::detect::parallel
