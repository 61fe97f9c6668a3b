// trace_reader.cpp: Trace::open (manifest, anchor, global definitions, the
// state of each rank's files). Events: trace_events.cpp; the manifest:
// manifest.cpp; what they share: trace_impl.h.
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
#include "trace_impl.h"

namespace cz::trace {
using namespace detail;

namespace detail {

// ---- OTF2 error capture -------------------------------------------------------

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

} // namespace detail

namespace {

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

} // namespace cz::trace
