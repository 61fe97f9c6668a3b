// report.cpp: see report.h.
#include "collectivize/report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "collectivize/trace_reader.h"

namespace cz::detect {
namespace {

std::string quoted(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\t': o += "\\t"; break;
    default:
      if (c < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        o += b;
      } else {
        o += char(c);
      }
    }
  }
  return o + "\"";
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
std::string commJson(const Match &m, const ReportContext &ctx) {
  std::string o = "{\"ref\": " + std::to_string(m.comm) + ", \"name\": " + quoted(m.commName);
  if (m.commCreated) {
    o += ", \"created_at\": ";
    if (const SourceLocation *at = creationPlace(m, ctx))
      o += "{\"file\": " + quoted(at->file) + ", \"line\": " + std::to_string(at->line) + "}";
    else
      o += "{\"site\": " + quoted(siteText(m.commSite, ctx.sites, ctx.returnAddresses)) + "}";
    o += ", \"color\": " + (m.commHasColor ? std::to_string(m.commColor) : std::string("null"));
  }
  return o + "}";
}

} // namespace

std::string equivalentCall(const Match &m) {
  std::string type = typeName(m.datatype), count = std::to_string(m.count);
  std::string root = m.root >= 0 ? std::to_string(m.root) : m.roots.empty() ? "?" : "root";
  std::string comm = m.subset && !m.splitColors.empty() ? "row_comm" : "comm";
  std::string op = m.op.empty() ? "op" : m.op;
  switch (m.kind) {
  case Kind::Bcast: return "MPI_Bcast(buf, " + count + ", " + type + ", " + root + ", " + comm + ")";
  case Kind::Scatter:
    return "MPI_Scatter(sendbuf, " + count + ", " + type + ", recvbuf, " + count + ", " + type +
           ", " + root + ", " + comm + ")";
  case Kind::Gather:
    return "MPI_Gather(sendbuf, " + count + ", " + type + ", recvbuf, " + count + ", " + type +
           ", " + root + ", " + comm + ")";
  case Kind::Allgather:
    return "MPI_Allgather(sendbuf, " + count + ", " + type + ", recvbuf, " + count + ", " + type +
           ", " + comm + ")";
  case Kind::Alltoall:
    return "MPI_Alltoall(sendbuf, " + count + ", " + type + ", recvbuf, " + count + ", " + type +
           ", " + comm + ")";
  case Kind::Reduce:
    return "MPI_Reduce(sendbuf, recvbuf, " + count + ", " + type + ", " + op + ", " + root + ", " +
           comm + ")";
  case Kind::Allreduce:
    return "MPI_Allreduce(sendbuf, recvbuf, " + count + ", " + type + ", " + op + ", " + comm + ")";
  case Kind::Scan:
    return "MPI_Scan(sendbuf, recvbuf, " + count + ", " + type + ", " + op + ", " + comm + ")";
  case Kind::Exscan:
    return "MPI_Exscan(sendbuf, recvbuf, " + count + ", " + type + ", " + op + ", " + comm + ")";
  case Kind::Barrier: return "MPI_Barrier(" + comm + ")";
  case Kind::Gatherv:
    return "MPI_Gatherv(sendbuf, sendcount, " + type + ", recvbuf, recvcounts, displs, " + type +
           ", " + root + ", " + comm + ")";
  case Kind::Alltoallv:
    return "MPI_Alltoallv(sendbuf, sendcounts, sdispls, " + type + ", recvbuf, recvcounts, rdispls, " +
           type + ", " + comm + ")";
  case Kind::Scatterv:
    return "MPI_Scatterv(sendbuf, sendcounts, displs, " + type + ", recvbuf, recvcount, " + type +
           ", " + root + ", " + comm + ")";
  }
  return "";
}

void writeJson(std::ostream &out, const Report &r, const ReportContext &ctx) {
  out << "{\n  \"format\": \"collectivize-detection\",\n  \"version\": " << kReportVersion << ",\n";
  out << "  \"trace\": " << quoted(ctx.traceDir) << ",\n";
  out << "  \"command\": " << quoted(ctx.command) << ",\n";
  out << "  \"sites\": " << (ctx.sitesPath.empty() ? "null" : quoted(ctx.sitesPath)) << ",\n";
  out << "  \"ranks\": " << r.ranks << ",\n";
  if (!r.runs.empty()) {
    out << "  \"runs\": [";
    for (size_t k = 0; k < r.runs.size(); k++)
      out << (k ? ", " : "") << "{\"trace\": " << quoted(r.runs[k].trace)
          << ", \"command\": " << quoted(r.runs[k].command) << ", \"ranks\": " << r.runs[k].ranks
          << "}";
    out << "],\n";
  }
  const MatchStats &s = r.stats;
  out << "  \"stats\": {\"events\": " << s.events << ", \"sends\": " << s.sends
      << ", \"receives\": " << s.receives << ", \"matched\": " << s.matched
      << ", \"unmatched_sends\": " << s.unmatchedSends
      << ", \"unmatched_receives\": " << s.unmatchedReceives << ", \"collectives\": {";
  bool firstCollective = true;
  for (const auto &[name, calls] : s.collectives) {
    out << (firstCollective ? "" : ", ") << quoted(name) << ": " << calls;
    firstCollective = false;
  }
  out << "}},\n";
  out << "  \"warnings\": [";
  for (size_t i = 0; i < r.warnings.size(); i++) out << (i ? ", " : "") << quoted(r.warnings[i]);
  out << "],\n  \"matches\": [";
  for (size_t i = 0; i < r.matches.size(); i++) {
    const Match &m = r.matches[i];
    out << (i ? ",\n" : "\n") << "    {\n";
    out << "      \"kind\": \"" << kindName(m.kind) << "\",\n";
    out << "      \"status\": \"" << statusName(m) << "\",\n";

    out << "      \"coverage\": " << number(m.coverage) << ",\n";
    out << "      \"root\": " << (m.root >= 0 ? std::to_string(m.root) : "null") << ",\n";
    out << "      \"root_world\": " << (m.rootWorld != kNone ? std::to_string(m.rootWorld) : "null")
        << ",\n";
    out << "      \"other_roots_world\": " << list(m.otherRoots) << ",\n";
    if (!m.roots.empty()) {
      out << "      \"roots\": " << list(groupRanks(m, m.roots)) << ",\n";
      out << "      \"roots_world\": " << list(m.roots) << ",\n";
    }
    out << "      \"communicator\": " << commJson(m, ctx) << ",\n";
    out << "      \"ranks\": " << list(m.ranks) << ",\n";
    out << "      \"subset\": " << (m.subset ? "true" : "false") << ",\n";
    if (!m.splitColors.empty())
      out << "      \"split\": {\"colors\": " << list(m.splitColors) << "},\n";
    else
      out << "      \"split\": null,\n";
    out << "      \"instances\": " << m.instances << ",\n";
    out << "      \"messages\": " << m.messages << ",\n";
    out << "      \"bytes_per_instance\": " << m.bytesPerInstance << ",\n";
    out << "      \"bytes_moved\": " << m.bytesMoved << ",\n";
    out << "      \"seconds_in_messages\": " << number(m.secondsInMessages) << ",\n";
    out << "      \"critical_path\": ";
    if (m.timedInstances)
      out << "{\"seconds\": " << number(m.secondsCriticalPath)
          << ", \"instances\": " << m.timedInstances << "},\n";
    else
      out << "null,\n";
    out << "      \"call_bytes\": " << m.callBytes << ",\n";
    out << "      \"count\": " << m.count << ",\n";
    out << "      \"datatype\": " << quoted(typeName(m.datatype)) << ",\n";
    out << "      \"op\": " << (m.op.empty() ? "null" : quoted(m.op)) << ",\n";
    if (!m.counts.empty()) out << "      \"counts\": " << countsText(m) << ",\n";
    out << "      \"equivalent\": " << quoted(equivalentCall(m)) << ",\n";
    out << "      \"sites\": [";
    for (size_t j = 0; j < m.sites.size(); j++) {
      // A wrapper's site reached from one caller: the wrapper's call (its
      // instrumenter id and place), and the caller's place.
      const SourceLocation *caller = callerOf(m.sites[j], ctx.returnAddresses);
      const SiteUse su = caller ? SiteUse{caller->wrapperSite, 0, m.sites[j].send} : m.sites[j];
      out << (j ? ", " : "") << "{\"id\": \"" << su.id << "\", \"kind\": \""
          << (su.siteKind == 1 ? "return_address" : "instrumenter") << "\", \"role\": \""
          << (su.send ? "send" : "recv") << "\"";
      const SiteLocations *table = su.siteKind == 0 ? ctx.sites : ctx.returnAddresses;
      if (table) {
        auto it = table->find(su.id);
        if (it != table->end()) {
          const SourceLocation &at = it->second;
          out << ", \"file\": " << quoted(at.file) << ", \"line\": " << at.line;
          if (at.column) out << ", \"column\": " << at.column;
          if (!at.function.empty()) out << ", \"function\": " << quoted(at.function);
          if (!at.callee.empty()) out << ", \"callee\": " << quoted(at.callee);
        }
      }
      if (caller) {
        out << ", \"caller\": {\"file\": " << quoted(caller->file) << ", \"line\": " << caller->line;
        if (!caller->function.empty()) out << ", \"function\": " << quoted(caller->function);
        out << "}";
      }
      out << "}";
    }
    out << "],\n";
    if (m.traceBlockBytes) out << "      \"trace_block_bytes\": " << m.traceBlockBytes << ",\n";
    if (!m.recvLayout.empty()) out << "      \"recv_layout\": " << quoted(m.recvLayout) << ",\n";
    if (!m.sendLayout.empty()) out << "      \"send_layout\": " << quoted(m.sendLayout) << ",\n";
    if (!m.runs.empty()) {
      out << "      \"runs\": [";
      for (size_t k = 0; k < m.runs.size(); k++) {
        out << (k ? ", " : "") << "{\"status\": " << quoted(m.runs[k].status);
        if (!m.runs[k].kind.empty()) out << ", \"kind\": " << quoted(m.runs[k].kind);
        out << ", \"ranks\": " << m.runs[k].ranks << "}";
      }
      out << "],\n";
    }
    if (m.unproven) {
      out << "      \"unproven\": [";
      bool firstBit = true;
      for (uint32_t b = 0; b < kUnprovenBits; b++)
        if (m.unproven & (1u << b)) {
          out << (firstBit ? "" : ", ") << quoted(unprovenName(1u << b));
          firstBit = false;
        }
      out << "],\n";
    }
    out << "      \"note\": " << quoted(m.note) << "\n    }";
  }
  out << (r.matches.empty() ? "]\n}\n" : "\n  ]\n}\n");
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
