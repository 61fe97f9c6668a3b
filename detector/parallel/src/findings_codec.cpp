// findings_codec.cpp: see findings_codec.h. Every field in declaration
// order; strings and vectors with their length first.
#include "findings_codec.h"

#include <type_traits>

#include "byte_io.h"

namespace cz::detect::parallel::detail {
namespace {

static_assert(std::is_trivially_copyable_v<SiteUse>);
static_assert(std::is_trivially_copyable_v<Arrival>);
static_assert(std::is_trivially_copyable_v<Match::MemberCount>);
constexpr uint64_t kMagic = 0x435a46494e443036ull; // "CZFIND06"

void putMatch(std::vector<char> &o, const Match &m) {
  put(o, m.kind), put(o, m.confirmed), put(o, m.unproven), put(o, m.coverage), put(o, m.comm);
  putText(o, m.commName);
  put(o, m.commCreated), put(o, m.commHasColor), put(o, m.commSite), put(o, m.commColor);
  putAll(o, m.ranks);
  put(o, m.subset);
  putAll(o, m.splitColors);
  put(o, m.root), put(o, m.rootWorld);
  putAll(o, m.otherRoots);
  putAll(o, m.roots);
  putAll(o, m.arrivals);
  putAll(o, m.counts);
  putAll(o, m.sites);
  putAll(o, m.receivesFromSeveral);
  put(o, m.instances), put(o, m.messages), put(o, m.bytesPerInstance), put(o, m.bytesMoved);
  put(o, m.secondsInMessages), put(o, m.datatype), put(o, m.count), put(o, m.rootAddress);
  put(o, m.secondsCriticalPath), put(o, m.timedInstances), put(o, m.callBytes);
  put(o, m.segments);
  putText(o, m.op);
  put(o, m.shapeOnly), put(o, m.severalTags), put(o, m.traceBlockBytes);
  put(o, m.supportOnly), put(o, m.direct), put(o, m.itemCrc);
  put(o, m.fedRoot), put(o, m.overlapsOtherRoots);
  putText(o, m.recvLayout), putText(o, m.sendLayout), putText(o, m.note);
  putAll(o, m.otherKinds);
}

void getMatch(ByteReader &r, Match &m) {
  m.kind = r.get<Kind>(), m.confirmed = r.get<bool>(), m.unproven = r.get<uint32_t>();
  m.coverage = r.get<double>();
  m.comm = r.get<uint32_t>();
  m.commName = r.text();
  m.commCreated = r.get<bool>(), m.commHasColor = r.get<bool>();
  m.commSite = r.get<SiteUse>(), m.commColor = r.get<int32_t>();
  r.getAll(m.ranks);
  m.subset = r.get<bool>();
  r.getAll(m.splitColors);
  m.root = r.get<int>(), m.rootWorld = r.get<uint32_t>();
  r.getAll(m.otherRoots);
  r.getAll(m.roots);
  r.getAll(m.arrivals);
  r.getAll(m.counts);
  r.getAll(m.sites);
  r.getAll(m.receivesFromSeveral);
  m.instances = r.get<uint64_t>(), m.messages = r.get<uint64_t>();
  m.bytesPerInstance = r.get<uint64_t>(), m.bytesMoved = r.get<uint64_t>();
  m.secondsInMessages = r.get<double>(), m.datatype = r.get<uint32_t>();
  m.count = r.get<uint64_t>(), m.rootAddress = r.get<uint64_t>();
  m.secondsCriticalPath = r.get<double>(), m.timedInstances = r.get<uint64_t>();
  m.callBytes = r.get<uint64_t>();
  m.segments = r.get<int>();
  m.op = r.text();
  m.shapeOnly = r.get<bool>(), m.severalTags = r.get<bool>();
  m.traceBlockBytes = r.get<uint64_t>();
  m.supportOnly = r.get<bool>(), m.direct = r.get<bool>(), m.itemCrc = r.get<uint32_t>();
  m.fedRoot = r.get<bool>(), m.overlapsOtherRoots = r.get<bool>();
  m.recvLayout = r.text(), m.sendLayout = r.text(), m.note = r.text();
  r.getAll(m.otherKinds);
}

} // namespace

void encode(const ProcessFindings &f, std::vector<char> &o) {
  o.clear();
  put(o, kMagic);
  put(o, uint64_t(f.windows.size()));
  for (const auto &[window, findings] : f.windows) {
    put(o, window);
    put(o, uint64_t(findings.size()));
    for (const Finding &g : findings) {
      put(o, g.key.kind), put(o, g.key.comm);
      putAll(o, g.key.participants);
      put(o, g.key.rootWorld);
      putAll(o, g.key.sites);
      putMatch(o, g.match);
      put(o, g.nanosInMessages), put(o, g.severalTagInstance), put(o, g.keptConfirmed);
    }
  }
  put(o, uint64_t(f.sites.size()));
  for (const auto &[id, s] : f.sites) {
    put(o, id);
    putText(o, s.file);
    put(o, s.line), put(o, s.column);
    putText(o, s.function), putText(o, s.callee);
    put(o, s.wrapperSite);
  }
  putText(o, f.symbolizeProblem);
  putAll(o, f.instrumenterSites);
}

bool decode(const char *data, size_t size, ProcessFindings &f, std::string &why) {
  ByteReader r{data, size};
  if (r.get<uint64_t>() != kMagic) {
    why = "findings from another version of collectivize";
    return false;
  }
  const uint64_t windows = r.get<uint64_t>();
  for (uint64_t w = 0; r.ok && w < windows; w++) {
    auto &[window, findings] = f.windows.emplace_back();
    window = r.get<uint64_t>();
    const uint64_t n = r.get<uint64_t>();
    for (uint64_t k = 0; r.ok && k < n; k++) {
      Finding &g = findings.emplace_back();
      g.key.kind = r.get<Kind>(), g.key.comm = r.get<uint32_t>();
      r.getAll(g.key.participants);
      g.key.rootWorld = r.get<uint32_t>();
      r.getAll(g.key.sites);
      getMatch(r, g.match);
      g.nanosInMessages = r.get<uint64_t>();
      g.severalTagInstance = r.get<bool>(), g.keptConfirmed = r.get<bool>();
    }
  }
  const uint64_t sites = r.get<uint64_t>();
  for (uint64_t k = 0; r.ok && k < sites; k++) {
    const uint64_t id = r.get<uint64_t>();
    SourceLocation &s = f.sites[id];
    s.file = r.text();
    s.line = r.get<int>(), s.column = r.get<int>();
    s.function = r.text(), s.callee = r.text();
    s.wrapperSite = r.get<uint64_t>();
  }
  f.symbolizeProblem = r.text();
  r.getAll(f.instrumenterSites);
  if (!r.ok || r.at != size) {
    why = "truncated or malformed findings";
    return false;
  }
  return true;
}

} // namespace cz::detect::parallel::detail
