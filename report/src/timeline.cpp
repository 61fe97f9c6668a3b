// timeline.cpp: per match, a bounded sample of messages for the timeline
// diagram: the first few instances of the match (its messages found by
// communicator, group and call sites) and the other traffic in that window.
// The trace is read through the detector's reader and matcher, so messages
// and sites are exactly what `collectivize detect` saw.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "collectivize/messages.h"
#include "collectivize/symbolize.h"
#include "collectivize/trace_reader.h"
#include "inputs.h"

namespace cz::report {
namespace {

constexpr int kInstancesShown = 3;

Json messageRow(const detect::Message &m, uint64_t t0, double ticksPerUs) {
  Json row = Json::array();
  row.push(Json::number(m.src));
  row.push(Json::number(m.dst));
  row.push(Json::number(double(m.sendTime - std::min(m.sendTime, t0)) / ticksPerUs));
  row.push(Json::number(double(m.recvTime - std::min(m.recvTime, t0)) / ticksPerUs));
  row.push(Json::number(double(m.bytes)));
  row.push(Json::number(m.tag));
  return row;
}

} // namespace

Json loadTimelines(const Json &detection, const std::string &traceDir, int cap,
                   InputStatus &status) {
  status.name = "trace (timelines)";
  status.path = traceDir;
  Json out = Json::array();
  if (detection.isNull()) {
    status.status = "not given";
    status.message = "no detection report, so no matches to draw";
    return out;
  }
  if (traceDir.empty()) {
    status.status = "not given";
    status.message = "no trace: give --trace DIR for the timelines";
    return out;
  }
  auto trace = trace::Trace::open(traceDir);
  if (!trace) {
    status.status = "missing";
    status.message = trace.error().message() + " (timelines left out; --trace DIR)";
    return out;
  }
  auto table = detect::matchMessages(*trace);
  if (!table) {
    status.status = "malformed";
    status.message = table.error().message();
    return out;
  }
  // Return-address sites become line ids, as in the detection report.
  detect::SiteLocations resolved;
  detect::symbolizeReturnAddresses(traceDir, *table, resolved);
  const double ticksPerUs = double(trace->definitions().timerResolution) / 1e6;

  std::vector<const detect::Message *> byTime;
  byTime.reserve(table->messages.size());
  for (const auto &m : table->messages) byTime.push_back(&m);
  std::sort(byTime.begin(), byTime.end(),
            [](auto *a, auto *b) { return a->sendTime < b->sendTime; });

  // Matches that share communicator and call sites (one loop run with
  // different roots) cannot be told apart by those alone.
  std::map<std::string, int> signatures;
  auto signature = [](const Json &match) {
    std::set<std::string> ids;
    for (const Json &s : match["sites"].items()) ids.insert(s["id"].text());
    std::string key = match["communicator"]["ref"].text();
    for (const auto &id : ids) key += "," + id;
    return key;
  };
  for (const Json &match : detection["matches"].items()) signatures[signature(match)]++;

  size_t drawn = 0;
  for (const Json &match : detection["matches"].items()) {
    std::set<uint64_t> ranks, sites;
    long long v = 0;
    for (const Json &r : match["ranks"].items())
      if (r.integerIn(0, 1LL << 24, v)) ranks.insert(uint64_t(v));
    for (const Json &s : match["sites"].items())
      sites.insert(std::strtoull(s["id"].text().c_str(), nullptr, 10));
    // An absent or unusable ref is UINT32_MAX (as -1 was meant to be).
    const uint32_t comm = match["communicator"]["ref"].integerIn(0, UINT32_MAX, v) ? uint32_t(v) : UINT32_MAX;
    auto candidate = [&](const detect::Message &m) {
      return m.comm == comm && ranks.count(m.src) && ranks.count(m.dst) &&
             (sites.count(m.sendSite) || sites.count(m.recvSite));
    };
    const int sharing = signatures[signature(match)];
    const std::string kind = match["kind"].str();
    // Shared sites, rooted one-to-all kinds: follow the data from this
    // match's root (each member informed once per instance).
    std::set<const detect::Message *> spread;
    const bool bySpread = sharing > 1 && (kind == "bcast" || kind == "scatter") &&
                          match["root_world"].isNumber();
    if (bySpread) {
      const uint32_t root = uint32_t(match["root_world"].num());
      std::set<uint32_t> informed{root};
      for (auto *m : byTime) {
        if (!candidate(*m) || !informed.count(m->src) || informed.count(m->dst)) continue;
        spread.insert(m);
        informed.insert(m->dst);
        if (informed.size() == ranks.size()) informed = {root};
      }
    }
    auto own = [&](const detect::Message &m) {
      return bySpread ? spread.count(&m) > 0 : candidate(m);
    };
    double instances = std::max(1.0, match["instances"].num(1));
    size_t perInstance = size_t(std::max(1.0, match["messages"].num(1) / instances));
    size_t want = std::min<size_t>(size_t(cap), perInstance * kInstancesShown);

    Json t = Json::object();
    Json mine = Json::array(), other = Json::array();
    uint64_t begin = 0, end = 0;
    size_t ownSeen = 0;
    for (auto *m : byTime) {
      if (!own(*m)) continue;
      if (ownSeen == 0) begin = m->sendTime;
      if (ownSeen++ >= want) break;
      end = std::max(end, m->recvTime);
    }
    // Some context before and after the instances shown.
    const uint64_t span = end > begin ? end - begin : 1;
    const uint64_t lo = begin - std::min(begin, span / 4), hi = end + span / 10;
    size_t ownTotal = 0, otherTotal = 0;
    for (auto *m : byTime) {
      if (ownSeen == 0) break;
      bool isOwn = own(*m);
      if (isOwn) ownTotal++;
      if (isOwn) {
        if (m->sendTime >= begin && m->recvTime <= end && mine.size() < want)
          mine.push(messageRow(*m, lo, ticksPerUs));
      } else if (m->sendTime <= hi && m->recvTime >= lo) {
        otherTotal++;
        if (other.size() < size_t(cap)) other.push(messageRow(*m, lo, ticksPerUs));
      }
    }
    Json rankList = Json::array();
    for (int r = 0; r < table->ranks; ++r) rankList.push(Json::number(r));
    t.set("ranks", std::move(rankList));
    t.set("span_us", Json::number(double(hi - lo) / ticksPerUs));
    t.set("match_messages_total", Json::number(double(ownTotal)));
    t.set("other_in_window", Json::number(double(otherTotal)));
    t.set("instances_shown", Json::number(std::min<double>(kInstancesShown, instances)));
    t.set("messages", std::move(mine));
    // Other matches' messages may be drawn as this one's: say so.
    t.set("shared_sites", Json::number(bySpread ? 1 : sharing));
    t.set("other", std::move(other));
    if (ownSeen) drawn++;
    out.push(ownSeen ? std::move(t) : Json());
  }
  status.status = "ok";
  status.message = std::to_string(table->messages.size()) + " messages read; timelines for " +
                   std::to_string(drawn) + " of " +
                   std::to_string(detection["matches"].size()) + " matches";
  if (drawn < detection["matches"].size()) {
    status.status = "partial";
    status.message += " (no messages of the others in this trace: another run?)";
  }
  return out;
}

} // namespace cz::report
