// provenance.cpp: see provenance.h. The serial replay: every step of the
// table sorted by ReplayKey, each applied to the maps of BufferMaps.
#include "collectivize/provenance.h"

#include <algorithm>
#include <numeric>

#include "collectivize/buffer_maps.h"

namespace cz::detect::detail {

CarriedOrigins carriedOrigins(const MessageTable &t, const Provenance &pv, uint32_t msg) {
  CarriedOrigins c;
  if (msg >= pv.segments.spans.size()) return c;
  c.replayed = true;
  const uint32_t sender = t.messages[msg].src;
  size_t own = 0, n = 0;
  for (const Segment &s : pv.segments[msg]) {
    if (pv.origins[s.origin].rank == sender) own++;
    n++;
  }
  c.others = own < n;
  c.onlyOthers = n > 0 && own == 0 && msg < pv.verified.size() && pv.verified[msg];
  return c;
}

Provenance traceProvenance(const MessageTable &t) {
  BufferMaps maps(uint32_t(std::max(t.ranks, 0)), t.messages.size());
  Provenance pv;
  pv.segments.spans.resize(t.messages.size());
  pv.verified.assign(t.messages.size(), 0);
  // 16 bytes a step (the sort moves them): the rank and position that
  // break ties of equal times are read from the message, ties being rare.
  struct Step {
    uint64_t time;
    uint32_t msg;
    bool isSend;
  };
  std::vector<Step> steps;
  steps.reserve(t.messages.size() * 2);
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    steps.push_back({sendKey(m).time, i, true});
    steps.push_back({receiveKey(m).time, i, false});
  }
  auto keyOf = [&](const Step &s) {
    return s.isSend ? sendKey(t.messages[s.msg]) : receiveKey(t.messages[s.msg]);
  };
  // (A radix sort by time took 53 M fewer instructions on the bench trace
  // but its second array of steps raised the peak by 12 MB: this sort
  // works in place.)
  std::sort(steps.begin(), steps.end(), [&](const Step &a, const Step &b) {
    if (a.time != b.time) return a.time < b.time;
    return keyOf(a) < keyOf(b);
  });
  // Messages and own-data slots are fetched some steps ahead: the steps
  // visit both at random.
  const size_t ahead = 8;
  for (size_t k = 0; k < steps.size(); k++) {
    if (k + 2 * ahead < steps.size()) __builtin_prefetch(&t.messages[steps[k + 2 * ahead].msg]);
    if (k + ahead < steps.size() && steps[k + ahead].isSend)
      maps.prefetchOwn(t.messages[steps[k + ahead].msg]);
    const Step &s = steps[k];
    const Message &m = t.messages[s.msg];
    if (s.isSend) {
      BufferMaps::Decomposed d = maps.send(m.src, m, s.msg);
      pv.segments.spans[s.msg] = d.segments;
      pv.verified[s.msg] = d.verified;
    } else {
      maps.receive(m.dst, m, pv.segments.spans[s.msg]);
    }
  }
  pv.origins = std::move(maps.origins());
  pv.segments.pool = std::move(maps.pool());
  return pv;
}

std::vector<uint32_t> serialOriginNumbers(const std::vector<Origin> &origins,
                                          const MessageTable &t) {
  std::vector<uint32_t> order(origins.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return sendKey(t.messages[origins[a].firstMessage]) <
           sendKey(t.messages[origins[b].firstMessage]);
  });
  std::vector<uint32_t> number(origins.size());
  for (uint32_t k = 0; k < order.size(); k++) number[order[k]] = k;
  return number;
}

} // namespace cz::detect::detail
