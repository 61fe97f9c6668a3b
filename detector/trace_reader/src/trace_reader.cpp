// trace_reader.cpp: Trace::open (manifest, anchor, global definitions, the
// state of each rank's files) and event reading through OTF2, bounded by the
// event counts the validated chunk headers give.
#include "collectivize/trace_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include <otf2/otf2.h>

#include "collectivize_trace_format.h"
#include "evt_direct.h"
#include "otf2_validate.h"
#include "rank_fate.h"

namespace cz::trace {
using detail::DirectAttribute;
using detail::FileCheck;
using detail::FileState;

namespace {

// ---- OTF2 error capture -------------------------------------------------------
// OTF2 reports errors through one process-wide callback (by default printed
// to stderr). While the reader works, they are collected into its message.

thread_local std::string *tCapture = nullptr;

OTF2_ErrorCode onOtf2Error(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code,
                           const char *format, va_list va) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, va);
  if (tCapture) {
    if (tCapture->empty()) *tCapture = text; // the first (innermost) error says most
  } else {
    std::fprintf(stderr, "[OTF2] %s: %s\n", OTF2_Error_GetName(code), text);
  }
  return code;
}

class Otf2Errors {
public:
  Otf2Errors() {
    static std::once_flag once;
    std::call_once(once, [] { OTF2_Error_RegisterCallback(onOtf2Error, nullptr); });
    previous_ = tCapture;
    tCapture = &text_;
  }
  ~Otf2Errors() { tCapture = previous_; }
  std::string describe(OTF2_ErrorCode code) const {
    std::string s = text_.empty() ? OTF2_Error_GetDescription(code) : text_;
    return s + " (OTF2 " + OTF2_Error_GetName(code) + ")";
  }

private:
  std::string text_;
  std::string *previous_;
};

struct ReaderCloser {
  void operator()(OTF2_Reader *r) const {
    if (r) OTF2_Reader_Close(r);
  }
};
using ReaderPtr = std::unique_ptr<OTF2_Reader, ReaderCloser>;

bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// The Collectivize attributes (CZ_TRACE_ATTRIBUTES), found by name.
enum AttrKey {
#define CZ_ATTR_KEY(id, type, member, shown, description) K_##id,
  CZ_TRACE_ATTRIBUTES(CZ_ATTR_KEY)
#undef CZ_ATTR_KEY
  K_COUNT_, K_NONE = -1
};
const char *const kAttrNames[K_COUNT_] = {
#define CZ_ATTR_NAME(id, type, member, shown, description) CZ_TRACE_ATTR_##id,
    CZ_TRACE_ATTRIBUTES(CZ_ATTR_NAME)
#undef CZ_ATTR_NAME
};

struct Group {
  uint8_t type = 0;
  std::vector<uint32_t> members;
};
struct RawComm {
  uint32_t ref, name, group, parent;
};
struct DefLoad {
  Definitions *defs;
  std::map<uint32_t, Group> groups;
  std::vector<RawComm> comms;
  std::map<uint64_t, uint32_t> locationNames;
  std::map<uint32_t, uint32_t> regionNames, attributeNames;
  std::map<uint64_t, uint32_t> nodeNames;  // system tree node -> name string
  std::map<uint32_t, uint64_t> groupNodes; // location group -> its node
};

std::string stringOf(const Definitions &d, uint32_t ref) {
  auto it = d.strings.find(ref);
  return it == d.strings.end() ? std::string() : it->second;
}

OTF2_CallbackCode defClock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t) {
  auto *l = static_cast<DefLoad *>(u);
  l->defs->timerResolution = res ? res : 1;
  l->defs->globalOffset = off;
  l->defs->traceLength = len;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defNode(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                          OTF2_StringRef, OTF2_SystemTreeNodeRef) {
  static_cast<DefLoad *>(u)->nodeNames[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defLocationGroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef,
                                   OTF2_LocationGroupType, OTF2_SystemTreeNodeRef node,
                                   OTF2_LocationGroupRef) {
  static_cast<DefLoad *>(u)->groupNodes[self] = node;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defString(void *u, OTF2_StringRef self, const char *s) {
  static_cast<DefLoad *>(u)->defs->strings[self] = s ? s : "";
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defLocation(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                              OTF2_LocationType, uint64_t events, OTF2_LocationGroupRef group) {
  auto *l = static_cast<DefLoad *>(u);
  LocationDef &d = l->defs->locations[self];
  d.ref = self;
  d.group = group;
  d.numberOfEvents = events;
  l->locationNames[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defRegion(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef,
                            OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag,
                            OTF2_StringRef, uint32_t, uint32_t) {
  auto *l = static_cast<DefLoad *>(u);
  l->defs->regions[self].ref = self;
  l->regionNames[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defAttribute(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                               OTF2_StringRef, OTF2_Type type) {
  auto *l = static_cast<DefLoad *>(u);
  AttributeDef &a = l->defs->attributes[self];
  a.ref = self;
  a.type = type;
  l->attributeNames[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defGroup(void *u, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm, OTF2_GroupFlag, uint32_t n, const uint64_t *members) {
  Group &g = static_cast<DefLoad *>(u)->groups[self];
  g.type = type;
  g.members.assign(members, members + n);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode defComm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                          OTF2_CommRef parent, OTF2_CommFlag) {
  static_cast<DefLoad *>(u)->comms.push_back({self, name, group, parent});
  return OTF2_CALLBACK_SUCCESS;
}

} // namespace

// ---- Trace -----------------------------------------------------------------

struct RankFiles {
  bool done = false;
  std::string evtPath, defPath;
  FileCheck evt, def;
};

struct Trace::Impl {
  std::string dir, anchor;
  Manifest manifest;
  Definitions defs;
  uint64_t evtChunk = 0, defChunk = 0;
  std::vector<RankFiles> ranks;
  std::vector<Problem> problems;
  std::map<uint32_t, AttrKey> attrKeys; // attribute ref -> Collectivize key
  // The same for small refs, looked up once per attribute of every event.
  std::vector<int8_t> attrKeyByRef;
  AttrKey attrKey(uint32_t ref) const {
    if (ref < attrKeyByRef.size()) return AttrKey(attrKeyByRef[ref]);
    auto k = attrKeys.find(ref);
    return k == attrKeys.end() ? K_NONE : k->second;
  }
};

namespace {

// What the local definitions of the ranks hold: the communicator mapping
// (the first rank's that has one: every rank maps alike) and each rank's
// clock offsets.
struct LocalDefs {
  std::map<uint64_t, uint64_t> eventRefOf; // dense (definitions) -> event ref
  bool mappingDone = false;                // an earlier rank had one
  std::vector<ClockOffset> *offsets = nullptr;
};

OTF2_CallbackCode defMapping(void *u, OTF2_MappingType type, const OTF2_IdMap *map) {
  auto *l = static_cast<LocalDefs *>(u);
  if (type == OTF2_MAPPING_COMM && !l->mappingDone)
    OTF2_IdMap_Traverse(map, [](uint64_t local, uint64_t global, void *m) {
      (*static_cast<std::map<uint64_t, uint64_t> *>(m))[global] = local;
    }, &l->eventRefOf);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode defClockOffset(void *u, OTF2_TimeStamp time, int64_t offset, double deviation) {
  auto *l = static_cast<LocalDefs *>(u);
  if (l->offsets) l->offsets->push_back({time, offset, deviation});
  return OTF2_CALLBACK_SUCCESS;
}

// Events carry the tracer's sparse communicator refs; the global
// definitions number communicators densely and each location's local
// definitions map one to the other (global_defs.h). Everything downstream
// speaks event refs: the definitions are re-keyed by them. Traces written
// before the mapping existed have none (their definitions use event refs).
// The same pass reads every rank's clock offsets.
void readLocalDefinitions(Trace::Impl &impl, OTF2_Reader *reader) {
  LocalDefs local;
  for (size_t r = 0; r < impl.ranks.size(); r++) {
    const RankFiles &f = impl.ranks[r];
    if (f.def.state != FileState::Complete || f.def.size <= 20) continue;
    auto loc = impl.defs.locations.find(uint64_t(r));
    local.offsets = loc == impl.defs.locations.end() ? nullptr : &loc->second.clockOffsets;
    local.mappingDone = !local.eventRefOf.empty();
    OTF2_Reader_SelectLocation(reader, uint64_t(r));
    if (OTF2_Reader_OpenDefFiles(reader) != OTF2_SUCCESS) continue;
    if (OTF2_DefReader *dr = OTF2_Reader_GetDefReader(reader, uint64_t(r))) {
      OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
      OTF2_DefReaderCallbacks_SetMappingTableCallback(cb, defMapping);
      OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, defClockOffset);
      OTF2_Reader_RegisterDefCallbacks(reader, dr, cb, &local);
      OTF2_DefReaderCallbacks_Delete(cb);
      uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n);
      OTF2_Reader_CloseDefReader(reader, dr);
    }
    OTF2_Reader_CloseDefFiles(reader);
    if (local.offsets)
      std::sort(local.offsets->begin(), local.offsets->end(),
                [](const ClockOffset &a, const ClockOffset &b) { return a.time < b.time; });
  }
  std::map<uint64_t, uint64_t> &eventRefOf = local.eventRefOf;
  if (eventRefOf.empty()) return;
  auto eventRef = [&](uint32_t ref) {
    auto it = eventRefOf.find(ref);
    return it == eventRefOf.end() ? ref : uint32_t(it->second);
  };
  std::map<uint32_t, CommDef> byEventRef;
  for (auto &[ref, c] : impl.defs.comms) {
    c.ref = eventRef(ref);
    if (c.parent != kNoComm) c.parent = eventRef(c.parent);
    byEventRef[c.ref] = std::move(c);
  }
  impl.defs.comms = std::move(byEventRef);
}

} // namespace

Trace::Trace(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Trace::Trace(Trace &&) noexcept = default;
Trace &Trace::operator=(Trace &&) noexcept = default;
Trace::~Trace() = default;

uint64_t LocationDef::toRootClock(uint64_t t) const {
  if (clockOffsets.empty()) return t;
  // The record pair around t (the first or last one outside them).
  size_t k = 0;
  while (k + 2 < clockOffsets.size() && clockOffsets[k + 1].time <= t) k++;
  const ClockOffset &a = clockOffsets[k];
  const ClockOffset &b = clockOffsets[std::min(k + 1, clockOffsets.size() - 1)];
  int64_t offset = a.offset;
  if (t >= b.time) {
    offset = b.offset;
  } else if (t > a.time && b.time > a.time) {
    long double f = (long double)(t - a.time) / (long double)(b.time - a.time);
    offset = a.offset + int64_t(f * (long double)(b.offset - a.offset));
  }
  int64_t v = int64_t(t) + offset;
  return v < 0 ? 0 : uint64_t(v);
}

const std::string &Trace::directory() const { return impl_->dir; }
const Manifest &Trace::manifest() const { return impl_->manifest; }
const Definitions &Trace::definitions() const { return impl_->defs; }
int Trace::rankCount() const { return int(impl_->ranks.size()); }
const std::vector<Problem> &Trace::problems() const { return impl_->problems; }
bool Trace::rankComplete(int rank) const {
  if (rank < 0 || rank >= rankCount()) return false;
  const RankFiles &r = impl_->ranks[rank];
  return r.done && r.evt.state == FileState::Complete;
}
double Trace::microsecondsSinceStart(uint64_t timestamp) const {
  double ticks = timestamp >= impl_->defs.globalOffset
                     ? double(timestamp - impl_->defs.globalOffset)
                     : -double(impl_->defs.globalOffset - timestamp);
  return ticks * 1e6 / double(impl_->defs.timerResolution);
}

namespace detail {

// "key value" lines. Unknown keys are kept; a malformed known value is an
// error at its line's offset.
Result<Manifest> readManifest(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path, -1, std::string("cannot read: ") + std::strerror(errno)};
  std::stringstream text;
  text << file.rdbuf();
  return parseManifest(text.str(), path);
}

Result<Manifest> parseManifest(const std::string &text, const std::string &path) {
  std::istringstream in(text);
  Manifest m;
  std::string line;
  int64_t offset = 0;
  bool sawFormat = false;
  while (std::getline(in, line)) {
    int64_t lineOffset = offset;
    offset += int64_t(line.size()) + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    for (unsigned char c : line)
      if (c < 0x20 && c != '\t')
        return Error{path, lineOffset, "binary data in the manifest (not a Collectivize trace manifest)"};
    size_t sp = line.find_first_of(" \t");
    std::string key = line.substr(0, sp);
    std::string value = sp == std::string::npos ? "" : line.substr(line.find_first_not_of(" \t", sp) == std::string::npos ? line.size() : line.find_first_not_of(" \t", sp));
    auto number = [&](int64_t &out) -> bool {
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end || errno) return false;
      out = v;
      return true;
    };
    int64_t v = 0;
    if (key == "format") {
      if (!number(v) || v < 1) return Error{path, lineOffset, "format: '" + value + "' is not a version number"};
      if (v > CZ_TRACE_FORMAT_VERSION)
        return Error{path, lineOffset,
                     "trace format " + std::to_string(v) + " is newer than this reader (" +
                         std::to_string(CZ_TRACE_FORMAT_VERSION) + "): update Collectivize"};
      m.format = int(v);
      sawFormat = true;
    } else if (key == "ranks") {
      if (!number(v) || v < 1 || v > (1 << 24))
        return Error{path, lineOffset, "ranks: '" + value + "' is not a process count"};
      m.ranks = int(v);
    } else if (key == "started") {
      if (!number(v)) return Error{path, lineOffset, "started: '" + value + "' is not a unix time"};
      m.started = v;
    } else if (key == "command") {
      m.command = value;
    } else if (key == "sites") {
      if (!value.empty()) m.sitesDatabases.push_back(value);
    } else {
      m.other[key] = value;
    }
  }
  if (!sawFormat) return Error{path, 0, "no 'format' line: not a Collectivize trace manifest"};
  return m;
}

} // namespace detail

Result<Manifest> readTraceManifest(const std::string &dir) {
  return detail::readManifest(dir + "/" CZ_TRACE_MANIFEST);
}

Result<Trace> Trace::open(const std::string &dirIn) {
  auto impl = std::make_unique<Impl>();
  std::string dir = dirIn;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  impl->dir = dir;
  struct stat st;
  if (stat(dir.c_str(), &st) != 0)
    return Error{dir, -1, std::string("no such trace directory (") + std::strerror(errno) + ")"};
  if (!S_ISDIR(st.st_mode)) return Error{dir, -1, "not a directory (a trace is a directory)"};

  std::string manifestPath = dir + "/" CZ_TRACE_MANIFEST;
  impl->anchor = dir + "/" CZ_TRACE_ARCHIVE ".otf2";
  bool haveManifest = exists(manifestPath), haveAnchor = exists(impl->anchor);
  if (!haveManifest && !haveAnchor)
    return Error{dir, -1,
                 "not a Collectivize trace (no " CZ_TRACE_MANIFEST " and no " CZ_TRACE_ARCHIVE
                 ".otf2)"};
  if (haveManifest) {
    Result<Manifest> m = detail::readManifest(manifestPath);
    if (!m) return m.error();
    impl->manifest = m.value();
  } else {
    impl->problems.push_back({-1, manifestPath, "the manifest " CZ_TRACE_MANIFEST " is missing"});
  }
  // The tracer writes the anchor at MPI_Finalize: a manifest without it (or
  // with an empty one, the disk being full) is a run whose ranks left their
  // records for `trace repair`; the ranks' markers say why.
  struct stat anchorStat;
  bool emptyAnchor = haveAnchor && stat(impl->anchor.c_str(), &anchorStat) == 0 &&
                     anchorStat.st_size == 0;
  if ((!haveAnchor || emptyAnchor) && haveManifest) {
    bool nospace = false;
    bool finalized = detail::anyFinalized(dir, std::max(impl->manifest.ranks, 0), &nospace);
    std::string what = emptyAnchor ? "the OTF2 anchor file is empty: " : "the OTF2 anchor file is missing: ";
    what += finalized ? std::string("the traced run reached MPI_Finalize but could not write its trace") +
                            (nospace ? " (the disk was full)" : "")
                      : "the traced run did not reach MPI_Finalize (aborted or killed)";
    return Error{impl->anchor, -1,
                 what + "; recover what it recorded with `collectivize trace repair " + dir + "`"};
  }
  if (!haveAnchor)
    return Error{impl->anchor, -1,
                 "the OTF2 anchor file is missing: this is not a complete trace directory"};

  // Anchor: small and not chunked; OTF2 reports its errors cleanly.
  Otf2Errors errors;
  ReaderPtr reader(OTF2_Reader_Open(impl->anchor.c_str()));
  if (!reader) return Error{impl->anchor, -1, "cannot open the OTF2 archive: " + errors.describe(OTF2_ERROR_INVALID)};
  OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
  if (OTF2_ErrorCode ec = OTF2_Reader_GetChunkSize(reader.get(), &impl->evtChunk, &impl->defChunk);
      ec != OTF2_SUCCESS)
    return Error{impl->anchor, -1, "unreadable anchor: " + errors.describe(ec)};
  uint64_t nLocations = 0, nDefinitions = 0;
  OTF2_Reader_GetNumberOfLocations(reader.get(), &nLocations);
  OTF2_Reader_GetNumberOfGlobalDefinitions(reader.get(), &nDefinitions);

  // Global definitions: validated, then read with a bound.
  std::string defPath = dir + "/" CZ_TRACE_ARCHIVE ".def";
  FileCheck dc = detail::checkChunkedFile(defPath, impl->defChunk, false);
  if (dc.state != FileState::Complete)
    return Error{defPath, dc.offset,
                 (dc.state == FileState::Missing ? "the global definitions file is missing"
                                                 : "global definitions unreadable: " + dc.reason)};
  OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(reader.get());
  if (!gdr) return Error{defPath, -1, "cannot open: " + errors.describe(OTF2_ERROR_INVALID)};
  DefLoad load{&impl->defs, {}, {}, {}, {}, {}, {}, {}};
  OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gcb, defClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcb, defString);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, defLocation);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(gcb, defNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(gcb, defLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcb, defRegion);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(gcb, defAttribute);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gcb, defGroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(gcb, defComm);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader.get(), gdr, gcb, &load);
  OTF2_GlobalDefReaderCallbacks_Delete(gcb);
  // Bound: the anchor's definition count (plus slack for what it omits).
  uint64_t bound = nDefinitions + 1024, total = 0;
  for (;;) {
    uint64_t got = 0;
    OTF2_ErrorCode ec = OTF2_Reader_ReadGlobalDefinitions(reader.get(), gdr, 4096, &got);
    if (ec != OTF2_SUCCESS) return Error{defPath, -1, "corrupt global definitions: " + errors.describe(ec)};
    total += got;
    if (got < 4096) break;
    if (total > bound)
      return Error{defPath, -1,
                   "more definitions than the anchor declares (" + std::to_string(nDefinitions) +
                       "): corrupt file"};
  }
  OTF2_Reader_CloseGlobalDefReader(reader.get(), gdr);

  // Resolve names, groups and attribute keys.
  Definitions &d = impl->defs;
  for (auto &[ref, name] : load.locationNames) d.locations[ref].name = stringOf(d, name);
  for (auto &[ref, l] : d.locations) {
    auto node = load.groupNodes.find(l.group);
    if (node == load.groupNodes.end()) continue;
    auto nodeName = load.nodeNames.find(node->second);
    if (nodeName != load.nodeNames.end()) l.host = stringOf(d, nodeName->second);
  }
  for (auto &[ref, name] : load.regionNames) d.regions[ref].name = stringOf(d, name);
  for (auto &[ref, name] : load.attributeNames) {
    d.attributes[ref].name = stringOf(d, name);
    d.attributeByName[d.attributes[ref].name] = ref;
    for (int k = 0; k < K_COUNT_; k++)
      if (d.attributes[ref].name == kAttrNames[k]) impl->attrKeys[ref] = AttrKey(k);
  }
  for (auto &[ref, key] : impl->attrKeys)
    if (ref < 4096) {
      if (impl->attrKeyByRef.size() <= ref) impl->attrKeyByRef.resize(ref + 1, int8_t(K_NONE));
      impl->attrKeyByRef[ref] = int8_t(key);
    }
  for (const RawComm &rc : load.comms) {
    CommDef &c = d.comms[rc.ref];
    c.ref = rc.ref;
    c.name = stringOf(d, rc.name);
    c.parent = rc.parent;
    auto g = load.groups.find(rc.group);
    if (g != load.groups.end()) {
      c.isSelf = g->second.type == OTF2_GROUP_TYPE_COMM_SELF;
      if (!c.isSelf) c.members = g->second.members;
    }
  }

  // Ranks: the manifest says how many there were; else the locations.
  int nRanks = impl->manifest.ranks;
  if (nRanks < 0) {
    uint64_t maxLoc = 0;
    bool any = false;
    for (auto &[ref, l] : d.locations)
      if (ref < (1u << 24)) maxLoc = std::max(maxLoc, ref), any = true;
    nRanks = any ? int(maxLoc + 1) : int(nLocations);
  }
  impl->ranks.resize(nRanks);
  for (int r = 0; r < nRanks; r++) {
    RankFiles &f = impl->ranks[r];
    char done[64];
    std::snprintf(done, sizeof done, CZ_TRACE_DONE_FMT, r);
    f.done = exists(dir + "/" + done);
    f.evtPath = dir + "/" CZ_TRACE_ARCHIVE "/" + std::to_string(r) + ".evt";
    f.defPath = dir + "/" CZ_TRACE_ARCHIVE "/" + std::to_string(r) + ".def";
    f.evt = detail::checkChunkedFile(f.evtPath, impl->evtChunk, true);
    f.def = detail::checkChunkedFile(f.defPath, impl->defChunk, false);
    if (f.evt.state == FileState::Corrupt) return Error{f.evtPath, f.evt.offset, f.evt.reason};
    if (f.def.state == FileState::Corrupt) return Error{f.defPath, f.def.offset, f.def.reason};
    std::string rn = "rank " + std::to_string(r);
    if (!f.done)
      impl->problems.push_back({r, dir + "/" + done,
                                rn + " did not finish tracing (no " + done + "): it " +
                                    detail::describeFate(detail::rankFate(dir, r))});
    if (f.evt.state == FileState::Missing)
      impl->problems.push_back({r, f.evtPath, rn + ": event file missing: no events of this rank were written"});
    else if (f.evt.state == FileState::Truncated)
      impl->problems.push_back({r, f.evtPath,
                                rn + ": event file truncated at offset " +
                                    std::to_string(f.evt.offset) + " (" + f.evt.reason + "); " +
                                    std::to_string(f.evt.readableEvents) +
                                    " events before it are readable"});
    if (f.def.state == FileState::Truncated)
      impl->problems.push_back({r, f.defPath, rn + ": local definitions truncated (ignored)"});
    if (!d.locations.count(uint64_t(r)))
      impl->problems.push_back({r, defPath, rn + " has no location in the global definitions"});
  }
  readLocalDefinitions(*impl, reader.get());
  if (impl->manifest.ranks > 0 && nLocations > uint64_t(impl->manifest.ranks))
    impl->problems.push_back({-1, impl->anchor,
                              "the archive has " + std::to_string(nLocations) +
                                  " locations but the manifest says " +
                                  std::to_string(impl->manifest.ranks) + " ranks"});
  return Trace(std::move(impl));
}

// ---- events ----------------------------------------------------------------

namespace {

struct ReadCtx {
  const Trace::Impl *impl;
  int rank;
  const std::function<bool(const Event &)> *onEvent;
  uint64_t delivered = 0;
  uint64_t max = 0;
  bool stopped = false;
  uint64_t skip = 0; // events to pass over (handed out already)
  // Whose clock offsets put the timestamps on rank 0's clock (none: raw).
  const LocationDef *location = nullptr;
};

bool asUnsigned(OTF2_Type type, const OTF2_AttributeValue &v, uint64_t &out) {
  switch (type) {
  case OTF2_TYPE_UINT8: out = v.uint8; return true;
  case OTF2_TYPE_UINT16: out = v.uint16; return true;
  case OTF2_TYPE_UINT32: out = v.uint32; return true;
  case OTF2_TYPE_UINT64: out = v.uint64; return true;
  case OTF2_TYPE_COMM: out = v.commRef; return true;
  case OTF2_TYPE_INT8: out = uint64_t(int64_t(v.int8)); return true;
  case OTF2_TYPE_INT16: out = uint64_t(int64_t(v.int16)); return true;
  case OTF2_TYPE_INT32: out = uint64_t(int64_t(v.int32)); return true;
  case OTF2_TYPE_INT64: out = uint64_t(v.int64); return true;
  default: return false;
  }
}

// The attribute's value in its Event member's type (COLOR, an int written
// as UINT32, becomes negative again).
template <class T>
void assign(std::optional<T> &member, uint64_t v) {
  member = T(v);
}

// (Inlined: called for every attribute of every event.)
__attribute__((always_inline)) inline void applyAttribute(const Trace::Impl &impl, Event &e, uint32_t ref,
                                                          uint64_t v) {
  AttrKey key = impl.attrKey(ref);
  switch (key) {
#define CZ_APPLY_ATTRIBUTE(id, type, member, shown, description) \
  case K_##id: assign(e.member, v); break;
    CZ_TRACE_ATTRIBUTES(CZ_APPLY_ATTRIBUTE)
#undef CZ_APPLY_ATTRIBUTE
  default: return;
  }
  if (key == K_SITE) e.siteKind = 0;
  if (key == K_RETURN_ADDRESS) e.siteKind = 1;
}

// Hands an event whose record fields and attributes are set to the
// caller; false: stop reading.
bool handOut(ReadCtx &c, Event &e) {
  e.rank = c.rank;
  if (c.location) e.timestamp = c.location->toRootClock(e.timestamp);
  if (e.peer && !e.peerWorld) e.peerWorld = c.impl->defs.worldRank(e.comm, *e.peer, c.rank);
  if (c.skip) { // already handed out by the direct reader
    c.skip--;
    return true;
  }
  c.delivered++;
  if (!(*c.onEvent)(e) || (c.max && c.delivered >= c.max)) {
    c.stopped = true;
    return false;
  }
  return true;
}

OTF2_CallbackCode deliver(ReadCtx &c, Event &e, OTF2_AttributeList *attrs, uint64_t time) {
  e.timestamp = time;
  uint32_t n = attrs ? OTF2_AttributeList_GetNumberOfElements(attrs) : 0;
  for (uint32_t i = 0; i < n; i++) {
    OTF2_AttributeRef ref;
    OTF2_Type type;
    OTF2_AttributeValue value;
    if (OTF2_AttributeList_GetAttributeByIndex(attrs, i, &ref, &type, &value) != OTF2_SUCCESS)
      continue;
    uint64_t v;
    if (asUnsigned(type, value, v)) applyAttribute(*c.impl, e, ref, v);
  }
  return handOut(c, e) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

// The direct reader's sink (evt_direct.h).
bool deliverDirect(void *u, Event &e, const DirectAttribute *attrs, size_t n) {
  ReadCtx &c = *static_cast<ReadCtx *>(u);
  for (size_t i = 0; i < n; i++) applyAttribute(*c.impl, e, attrs[i].ref, attrs[i].value);
  return handOut(c, e);
}

ReadCtx &ctxOf(void *u) { return *static_cast<ReadCtx *>(u); }
std::optional<uint32_t> peerOf(uint32_t p) {
  return p == OTF2_UNDEFINED_UINT32 ? std::nullopt : std::optional<uint32_t>(p);
}

// A point-to-point record (peer: receiver of sends, sender of receives).
OTF2_CallbackCode message(void *u, OTF2_AttributeList *a, OTF2_TimeStamp t, EventKind kind,
                          uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                          std::optional<uint64_t> req) {
  Event e;
  e.kind = kind, e.peer = peerOf(peer), e.comm = comm, e.tag = tag, e.bytes = len;
  e.request = req;
  return deliver(ctxOf(u), e, a, t);
}
OTF2_CallbackCode evSend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                         OTF2_AttributeList *a, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                         uint64_t len) {
  return message(u, a, t, EventKind::Send, to, comm, tag, len, std::nullopt);
}
OTF2_CallbackCode evIsend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                          OTF2_AttributeList *a, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                          uint64_t len, uint64_t req) {
  return message(u, a, t, EventKind::Isend, to, comm, tag, len, req);
}
OTF2_CallbackCode evRecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                         OTF2_AttributeList *a, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                         uint64_t len) {
  return message(u, a, t, EventKind::Recv, from, comm, tag, len, std::nullopt);
}
OTF2_CallbackCode evIrecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                          OTF2_AttributeList *a, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                          uint64_t len, uint64_t req) {
  return message(u, a, t, EventKind::Irecv, from, comm, tag, len, req);
}
template <EventKind K>
OTF2_CallbackCode evRequest(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                            OTF2_AttributeList *a, uint64_t req) {
  Event e;
  e.kind = K, e.request = req;
  return deliver(ctxOf(u), e, a, t);
}
OTF2_CallbackCode evCollBegin(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                              OTF2_AttributeList *a) {
  Event e;
  e.kind = EventKind::CollectiveBegin;
  return deliver(ctxOf(u), e, a, t);
}
OTF2_CallbackCode evCollEnd(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                            OTF2_AttributeList *a, OTF2_CollectiveOp op, OTF2_CommRef comm,
                            uint32_t root, uint64_t sent, uint64_t received) {
  Event e;
  e.kind = EventKind::CollectiveEnd, e.collectiveOp = op, e.comm = comm, e.peer = peerOf(root);
  e.bytes = sent, e.bytesReceived = received;
  return deliver(ctxOf(u), e, a, t);
}
template <EventKind K>
OTF2_CallbackCode evRegion(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                           OTF2_AttributeList *a, OTF2_RegionRef region) {
  Event e;
  e.kind = K, e.region = region;
  return deliver(ctxOf(u), e, a, t);
}

} // namespace

Result<uint64_t> Trace::forEachEvent(int rank, const std::function<bool(const Event &)> &onEvent,
                                     const ReadOptions &options) const {
  if (rank < 0 || rank >= rankCount())
    return Error{impl_->dir, -1,
                 "no rank " + std::to_string(rank) + " in this trace (ranks 0.." +
                     std::to_string(rankCount() - 1) + ")"};
  const RankFiles &f = impl_->ranks[rank];
  if (f.evt.state == FileState::Missing) return uint64_t(0);
  // The bound: events in the whole chunks of the validated file. OTF2 is
  // never asked for more, so it never reaches a truncated chunk.
  uint64_t bound = f.evt.readableEvents;
  if (bound == 0) return uint64_t(0);

  ReadCtx ctx{impl_.get(), rank, &onEvent, 0, options.maxEvents, false};
  auto loc = impl_->defs.locations.find(uint64_t(rank));
  // Ranks on rank 0's node have offsets of exactly 0: nothing to apply.
  if (!options.rawTimestamps && loc != impl_->defs.locations.end())
    for (const ClockOffset &o : loc->second.clockOffsets)
      if (o.offset != 0) ctx.location = &loc->second;
  // The event file is read directly (evt_direct.h), its references as
  // written: the tracer's local definitions hold nothing but the
  // communicator mapping, which this reader does not apply (above). What
  // the direct reader leaves, OTF2 reads.
  if (!options.otf2Only && f.def.state != FileState::Corrupt) {
    detail::DirectRead d = detail::readEventsDirect(f.evtPath, impl_->evtChunk, bound, deliverDirect, &ctx);
    if (d.complete) return ctx.delivered;
    ctx.skip = d.handedOut; // (ctx.delivered counts them already)
    ctx.stopped = false;
  }

  Otf2Errors errors;
  ReaderPtr reader(OTF2_Reader_Open(impl_->anchor.c_str()));
  if (!reader) return Error{impl_->anchor, -1, "cannot reopen the archive: " + errors.describe(OTF2_ERROR_INVALID)};
  OTF2_Reader *r = reader.get();
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  OTF2_Reader_SelectLocation(r, uint64_t(rank));
  if (f.def.state == FileState::Complete && OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS) {
    if (OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, uint64_t(rank))) {
      uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
      OTF2_Reader_CloseDefReader(r, dr);
    }
    OTF2_Reader_CloseDefFiles(r);
  }
  if (OTF2_ErrorCode ec = OTF2_Reader_OpenEvtFiles(r); ec != OTF2_SUCCESS)
    return Error{f.evtPath, -1, "cannot open: " + errors.describe(ec)};
  OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, uint64_t(rank));
  if (!er) return Error{f.evtPath, -1, "cannot open: " + errors.describe(OTF2_ERROR_INVALID)};
  OTF2_EvtReader_ApplyMappingTables(er, false); // event refs, as the definitions are keyed
  OTF2_EvtReader_ApplyClockOffsets(er, false);   // applied like the direct reader's (handOut)

  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, evSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, evIsend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, evRequest<EventKind::IsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, evRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, evRequest<EventKind::IrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, evIrecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, evRequest<EventKind::RequestCancelled>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, evCollBegin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, evCollEnd);
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, evRegion<EventKind::Enter>);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, evRegion<EventKind::Leave>);
  OTF2_Reader_RegisterEvtCallbacks(r, er, cb, &ctx);
  OTF2_EvtReaderCallbacks_Delete(cb);

  auto start = std::chrono::steady_clock::now();
  uint64_t records = 0; // all records OTF2 read (including ones not handed out)
  std::optional<Error> failure;
  while (records < bound && !ctx.stopped) {
    uint64_t got = 0;
    OTF2_ErrorCode ec = OTF2_Reader_ReadLocalEvents(r, er, std::min<uint64_t>(4096, bound - records), &got);
    records += got;
    if (ctx.stopped) break;
    if (ec != OTF2_SUCCESS) {
      failure = Error{f.evtPath, -1,
                      "corrupt event data after " + std::to_string(records) +
                          " events: " + errors.describe(ec)};
      break;
    }
    if (got == 0) break; // fewer records than the headers count: take what there is
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.timeoutSeconds > 0 && elapsed > options.timeoutSeconds) {
      failure = Error{f.evtPath, -1,
                      "reading stopped after " + std::to_string(options.timeoutSeconds) +
                          " s (" + std::to_string(records) + " of " + std::to_string(bound) +
                          " events)"};
      break;
    }
  }
  OTF2_Reader_CloseEvtReader(r, er);
  OTF2_Reader_CloseEvtFiles(r);
  if (failure) return *failure;
  return ctx.delivered;
}

uint64_t Trace::eventBound(int rank) const {
  if (rank < 0 || rank >= rankCount()) return 0;
  const RankFiles &f = impl_->ranks[size_t(rank)];
  return f.evt.state == FileState::Missing ? 0 : f.evt.readableEvents;
}

Result<std::vector<Event>> Trace::loadRank(int rank, const ReadOptions &options) const {
  std::vector<Event> events;
  if (rank >= 0 && rank < rankCount())
    events.reserve(std::min<uint64_t>(impl_->ranks[rank].evt.readableEvents, 1u << 24));
  Result<uint64_t> n = forEachEvent(
      rank,
      [&](const Event &e) {
        events.push_back(e);
        return true;
      },
      options);
  if (!n) return n.error();
  return events;
}

Result<std::vector<RankSummary>> summarize(const Trace &trace, const ReadOptions &options) {
  std::vector<RankSummary> out;
  for (int r = 0; r < trace.rankCount(); r++) {
    Result<uint64_t> n = trace.forEachEvent(r, [](const Event &) { return true; }, options);
    if (!n) return n.error();
    out.push_back({r, n.value(), trace.rankComplete(r)});
  }
  return out;
}

} // namespace cz::trace
