// report.cpp: see report.h.
#include "collectivize/report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "collectivize/json.h"
#include "collectivize/trace_reader.h"

namespace cz::detect {
namespace {

using json::Json;

// A whole number as the report writes it.
template <class T>
Json whole(T v) {
  return Json::numberText(std::to_string(v));
}

template <class T>
Json numbers(const std::vector<T> &v) {
  Json a = Json::array();
  for (const T &x : v) a.push(whole(x));
  return a;
}

std::string number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

template <class T>
std::string list(const std::vector<T> &v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); i++) o += (i ? ", " : "") + std::to_string(v[i]);
  return o + "]";
}

std::string typeName(uint32_t code) {
  std::string n = trace::datatypeName(code);
  return n == "derived" ? "<derived datatype>" : "MPI_" + n;
}

// A site of kind 2: where the program called its wrapper, and the
// wrapper's instrumenter id (null when the entry is missing).
const SourceLocation *callerOf(const SiteUse &s, const SiteLocations *returnAddresses) {
  if (s.siteKind != 2 || !returnAddresses) return nullptr;
  auto it = returnAddresses->find(s.id);
  return it == returnAddresses->end() || !it->second.wrapperSite ? nullptr : &it->second;
}

std::string placeText(const SourceLocation &at) {
  return at.line ? at.file + ":" + std::to_string(at.line) : at.file;
}

std::string siteText(const SiteUse &s, const SiteLocations *sites,
                     const SiteLocations *returnAddresses) {
  char b[64];
  if (const SourceLocation *caller = callerOf(s, returnAddresses))
    return siteText({caller->wrapperSite, 0, s.send}, sites, nullptr) + " called from " +
           placeText(*caller) + (caller->function.empty() ? "" : " in " + caller->function);
  if (s.siteKind == 1 && returnAddresses) {
    auto it = returnAddresses->find(s.id);
    if (it != returnAddresses->end())
      return it->second.line ? it->second.file + ":" + std::to_string(it->second.line)
                             : it->second.file + " (" + it->second.function + ")";
  }
  if (s.siteKind == 1) {
    std::snprintf(b, sizeof b, "ra:0x%" PRIx64, s.id);
    return b;
  }
  std::string t = std::to_string(s.id);
  if (sites) {
    auto it = sites->find(s.id);
    if (it != sites->end()) t += " " + it->second.file + ":" + std::to_string(it->second.line);
  }
  return t;
}

// World ranks as ranks in the match's group (-1: not in it).
std::vector<int> groupRanks(const Match &m, const std::vector<uint32_t> &world) {
  std::vector<int> out;
  for (uint32_t w : world) {
    auto it = std::find(m.ranks.begin(), m.ranks.end(), w);
    out.push_back(it == m.ranks.end() ? -1 : int(it - m.ranks.begin()));
  }
  return out;
}

// Elements per member in group order ([3, 1, null]: null where unseen).
std::string countsText(const Match &m) {
  std::string o = "[";
  for (size_t i = 0; i < m.ranks.size(); i++) {
    std::string c = "null";
    for (const Match::MemberCount &mc : m.counts)
      if (mc.rank == m.ranks[i]) c = std::to_string(mc.count);
    o += (i ? ", " : "") + c;
  }
  return o + "]";
}

// Where the match's communicator was made, in the source, or null.
const SourceLocation *creationPlace(const Match &m, const ReportContext &ctx) {
  if (!m.commCreated) return nullptr;
  const SiteLocations *table = m.commSite.siteKind == 0 ? ctx.sites : ctx.returnAddresses;
  if (!table) return nullptr;
  auto it = table->find(m.commSite.id);
  return it == table->end() || !it->second.line ? nullptr : &it->second;
}

// "MPI_Comm_split at grid.c:40, color 1": two communicators made by the
// same call are told apart by where and with which color they were made.
std::string commText(const Match &m, const ReportContext &ctx) {
  std::string c = m.commName.empty() ? "comm " + std::to_string(m.comm) : m.commName;
  if (const SourceLocation *at = creationPlace(m, ctx))
    c += " at " + at->file + ":" + std::to_string(at->line);
  if (m.commCreated && m.commHasColor) c += ", color " + std::to_string(m.commColor);
  return c;
}

// The communicator's JSON object (REPORT_FORMAT.md, "communicator").
Json commJson(const Match &m, const ReportContext &ctx) {
  Json o = Json::object();
  o.set("ref", whole(m.comm));
  o.set("name", Json::string(m.commName));
  if (m.commCreated) {
    Json &created = o.set("created_at", Json::object());
    if (const SourceLocation *at = creationPlace(m, ctx)) {
      created.set("file", Json::string(at->file));
      created.set("line", whole(at->line));
    } else {
      created.set("site", Json::string(siteText(m.commSite, ctx.sites, ctx.returnAddresses)));
    }
    o.set("color", m.commHasColor ? whole(m.commColor) : Json());
  }
  return o;
}

// One match of the report (REPORT_FORMAT.md, "matches"), its members in
// the documented order.
Json matchJson(const Match &m, const ReportContext &ctx) {
  Json o = Json::object();
  o.set("kind", Json::string(kindName(m.kind)));
  o.set("status", Json::string(statusName(m)));
  o.set("coverage", Json::numberText(number(m.coverage)));
  o.set("root", m.root >= 0 ? whole(m.root) : Json());
  o.set("root_world", m.rootWorld != kNone ? whole(m.rootWorld) : Json());
  o.set("other_roots_world", numbers(m.otherRoots));
  if (!m.roots.empty()) {
    o.set("roots", numbers(groupRanks(m, m.roots)));
    o.set("roots_world", numbers(m.roots));
  }
  o.set("communicator", commJson(m, ctx));
  o.set("ranks", numbers(m.ranks));
  o.set("subset", Json::boolean(m.subset));
  if (!m.splitColors.empty()) {
    Json &split = o.set("split", Json::object());
    split.set("colors", numbers(m.splitColors));
  } else {
    o.set("split", Json());
  }
  o.set("instances", whole(m.instances));
  o.set("messages", whole(m.messages));
  o.set("bytes_per_instance", whole(m.bytesPerInstance));
  o.set("bytes_moved", whole(m.bytesMoved));
  o.set("seconds_in_messages", Json::numberText(number(m.secondsInMessages)));
  if (m.timedInstances) {
    Json &path = o.set("critical_path", Json::object());
    path.set("seconds", Json::numberText(number(m.secondsCriticalPath)));
    path.set("instances", whole(m.timedInstances));
  } else {
    o.set("critical_path", Json());
  }
  o.set("call_bytes", whole(m.callBytes));
  o.set("count", whole(m.count));
  o.set("datatype", Json::string(typeName(m.datatype)));
  o.set("op", m.op.empty() ? Json() : Json::string(m.op));
  if (!m.counts.empty()) {
    // Elements per member in group order (null where unseen).
    Json &counts = o.set("counts", Json::array());
    for (uint32_t rank : m.ranks) {
      Json c;
      for (const Match::MemberCount &mc : m.counts)
        if (mc.rank == rank) c = whole(mc.count);
      counts.push(c);
    }
  }
  o.set("equivalent", Json::string(equivalentCall(m)));
  Json &sites = o.set("sites", Json::array());
  for (const SiteUse &use : m.sites) {
    // A wrapper's site reached from one caller: the wrapper's call (its
    // instrumenter id and place), and the caller's place.
    const SourceLocation *caller = callerOf(use, ctx.returnAddresses);
    const SiteUse su = caller ? SiteUse{caller->wrapperSite, 0, use.send} : use;
    Json &site = sites.push(Json::object());
    site.set("id", Json::string(std::to_string(su.id)));
    site.set("kind", Json::string(su.siteKind == 1 ? "return_address" : "instrumenter"));
    site.set("role", Json::string(su.send ? "send" : "recv"));
    const SiteLocations *table = su.siteKind == 0 ? ctx.sites : ctx.returnAddresses;
    if (table) {
      auto it = table->find(su.id);
      if (it != table->end()) {
        const SourceLocation &at = it->second;
        site.set("file", Json::string(at.file));
        site.set("line", whole(at.line));
        if (at.column) site.set("column", whole(at.column));
        if (!at.function.empty()) site.set("function", Json::string(at.function));
        if (!at.callee.empty()) site.set("callee", Json::string(at.callee));
      }
    }
    if (caller) {
      Json &from = site.set("caller", Json::object());
      from.set("file", Json::string(caller->file));
      from.set("line", whole(caller->line));
      if (!caller->function.empty()) from.set("function", Json::string(caller->function));
    }
  }
  if (m.traceBlockBytes) o.set("trace_block_bytes", whole(m.traceBlockBytes));
  if (!m.recvLayout.empty()) o.set("recv_layout", Json::string(m.recvLayout));
  if (!m.sendLayout.empty()) o.set("send_layout", Json::string(m.sendLayout));
  if (!m.runs.empty()) {
    Json &runs = o.set("runs", Json::array());
    for (const auto &run : m.runs) {
      Json &one = runs.push(Json::object());
      one.set("status", Json::string(run.status));
      if (!run.kind.empty()) one.set("kind", Json::string(run.kind));
      one.set("ranks", whole(run.ranks));
    }
  }
  if (!m.otherKinds.empty()) {
    Json &kinds = o.set("other_kinds", Json::array());
    for (Kind k : m.otherKinds) kinds.push(Json::string(kindName(k)));
  }
  if (m.unproven) {
    Json &unproven = o.set("unproven", Json::array());
    for (uint32_t b = 0; b < kUnprovenBits; b++)
      if (m.unproven & (1u << b)) unproven.push(Json::string(unprovenName(1u << b)));
  }
  o.set("note", Json::string(m.note));
  return o;
}

} // namespace

std::string equivalentCall(const Match &m) {
  const std::string values[][2] = {
      {"COUNT", std::to_string(m.count)},
      {"TYPE", typeName(m.datatype)},
      {"ROOT", m.root >= 0 ? std::to_string(m.root) : m.roots.empty() ? "?" : "root"},
      {"OP", m.op.empty() ? "op" : m.op},
      {"COMM", m.subset && !m.splitColors.empty() ? "row_comm" : "comm"}};
  // The kind's arguments (collective_kinds.def), each placeholder replaced.
  std::string call = std::string(mpiCallOf(m.kind)) + "(", args = mpiArgumentsOf(m.kind);
  for (size_t at = 0; at <= args.size();) {
    size_t end = std::min(args.find(", ", at), args.size());
    std::string arg = args.substr(at, end - at);
    for (const auto &v : values)
      if (arg == v[0]) arg = v[1];
    call += (at ? ", " : "") + arg;
    at = end + 2;
  }
  return call + ")";
}

void writeJson(std::ostream &out, const Report &r, const ReportContext &ctx) {
  Json doc = Json::object();
  doc.set("format", Json::string("collectivize-detection"));
  doc.set("version", whole(kReportVersion));
  doc.set("trace", Json::string(ctx.traceDir));
  doc.set("command", Json::string(ctx.command));
  doc.set("sites", ctx.sitesPath.empty() ? Json() : Json::string(ctx.sitesPath));
  doc.set("ranks", whole(r.ranks));
  if (!r.runs.empty()) {
    Json &runs = doc.set("runs", Json::array());
    for (const auto &run : r.runs) {
      Json &o = runs.push(Json::object());
      o.set("trace", Json::string(run.trace));
      o.set("command", Json::string(run.command));
      o.set("ranks", whole(run.ranks));
    }
  }
  const MatchStats &s = r.stats;
  Json &stats = doc.set("stats", Json::object());
  stats.set("events", whole(s.events));
  stats.set("sends", whole(s.sends));
  stats.set("receives", whole(s.receives));
  stats.set("matched", whole(s.matched));
  stats.set("unmatched_sends", whole(s.unmatchedSends));
  stats.set("unmatched_receives", whole(s.unmatchedReceives));
  Json &collectives = stats.set("collectives", Json::object());
  for (const auto &[name, calls] : s.collectives) collectives.set(name, whole(calls));
  Json &warnings = doc.set("warnings", Json::array());
  for (const std::string &w : r.warnings) warnings.push(Json::string(w));
  Json &matches = doc.set("matches", Json::array());
  for (const Match &m : r.matches) matches.push(matchJson(m, ctx));
  // The top level's members and each match's one per line; the rest inline.
  out << doc.dumpReadable([](int depth, const std::string &key) {
    return depth == 0 || (depth == 1 && key == "matches") || depth == 2;
  }) << "\n";
}

void writeText(std::ostream &out, const Report &r, const ReportContext &ctx) {
  size_t confirmed = 0, ambiguous = 0;
  for (const Match &m : r.matches) confirmed += m.confirmed, ambiguous += isAmbiguous(m);
  out << "trace " << ctx.traceDir << ": " << r.ranks << " ranks, " << r.stats.matched
      << " messages matched\n";
  for (size_t k = 1; k < r.runs.size(); k++)
    out << "and trace " << r.runs[k].trace << ": " << r.runs[k].ranks << " ranks\n";
  out << confirmed << " manual collective" << (confirmed == 1 ? "" : "s") << " confirmed, "
      << ambiguous << " ambiguous, " << r.matches.size() - confirmed - ambiguous << " partial\n";
  if (!r.stats.collectives.empty()) {
    out << "MPI collective calls (all ranks):";
    for (const auto &[name, calls] : r.stats.collectives) out << " " << name << " " << calls;
    out << "\n";
  }
  for (const Match &m : r.matches) {
    out << "\n" << (m.confirmed ? "" : isAmbiguous(m) ? "[ambiguous] " : "[partial] ")
        << kindName(m.kind) << " on "
        << commText(m, ctx);
    if (m.subset && !m.splitColors.empty())
      out << " (a subset: MPI_Comm_split(comm, color, rank) with colors " << list(m.splitColors)
          << ")";
    else if (m.subset)
      out << " (coverage " << int(m.coverage * 100 + 0.5) << "% of the communicator)";
    out << "\n  ranks " << list(m.ranks);
    if (m.root >= 0) out << ", root " << m.root << " (world " << m.rootWorld << ")";
    if (!m.otherRoots.empty()) out << ", also explained by world roots " << list(m.otherRoots);
    if (!m.roots.empty())
      out << ", root varies: " << list(groupRanks(m, m.roots)) << " (world " << list(m.roots)
          << ")";
    out << "\n  " << m.instances << " instance" << (m.instances == 1 ? "" : "s") << ", "
        << m.messages << " messages, " << m.bytesMoved << " bytes moved, "
        << number(m.secondsInMessages * 1e3) << " ms in messages\n";
    out << "  sites:";
    for (const SiteUse &su : m.sites)
      out << " " << (su.send ? "send " : "recv ") << siteText(su, ctx.sites, ctx.returnAddresses) << ";";
    out << "\n  equivalent: " << equivalentCall(m) << "\n";
    if (!m.counts.empty()) out << "  counts: " << countsText(m) << "\n";
    if (!m.note.empty()) out << "  note: " << m.note << "\n";
    if (!m.otherKinds.empty()) {
      out << "  also fits:";
      for (Kind k : m.otherKinds) out << " " << kindName(k);
      out << " (the same messages; what is unproven tells them apart)\n";
    }
    if (!m.runs.empty()) {
      out << "  runs:";
      for (size_t k = 0; k < m.runs.size(); k++)
        out << (k ? "," : "") << " " << m.runs[k].ranks << " ranks " << m.runs[k].status
            << (m.runs[k].kind.empty() ? "" : " (" + m.runs[k].kind + ")");
      out << "\n";
    }
    for (uint32_t b = 0; b < kUnprovenBits; b++)
      if (m.unproven & (1u << b))
        out << "  unproven (" << unprovenName(1u << b) << "): " << unprovenSettle(1u << b) << "\n";
    if (m.traceBlockBytes)
      out << "  to confirm: trace again with COLLECTIVIZE_TRACE_BLOCK_BYTES=" << m.traceBlockBytes
          << "\n";
  }
  // Partial matches that block CRCs would settle: how to trace again.
  uint64_t blockBytes = 0;
  size_t settle = 0;
  for (const Match &m : r.matches)
    if (m.traceBlockBytes) blockBytes = m.traceBlockBytes, settle++;
  if (settle)
    out << "\nhint: " << settle << " partial match" << (settle == 1 ? "" : "es")
        << " would be settled by a trace with block CRCs: collectivize run --block-bytes "
        << blockBytes << " -np " << r.ranks << " -- " << ctx.command << "\n";
  for (const std::string &w : r.warnings) out << "\nwarning: " << w << "\n";
}

} // namespace cz::detect
