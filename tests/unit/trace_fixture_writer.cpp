// trace_fixture_writer.cpp: see trace_fixture_writer.h.
#include "trace_fixture_writer.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <algorithm>
#include <map>
#include <optional>

#include <otf2/otf2.h>

#include "collectivize_trace_format.h"

namespace cz::trace::fixture {
namespace {

OTF2_FlushType preFlush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp postFlush(void *, OTF2_FileType, OTF2_LocationRef) { return 0; }
const OTF2_FlushCallbacks kFlush = {preFlush, postFlush};

// Attribute refs in the fixture's definitions: the tracer's
// (CZ_TRACE_ATTRIBUTES), then another tool's.
enum : uint32_t {
#define CZ_FIXTURE_REF(id, type, member, shown, description) A_##id,
  CZ_TRACE_ATTRIBUTES(CZ_FIXTURE_REF)
#undef CZ_FIXTURE_REF
  A_COUNT_,
  A_FOREIGN = A_COUNT_ // FixtureSpec::foreignAttribute
};
struct AttrSpec {
  const char *name;
  OTF2_Type type;
};
const AttrSpec kAttrs[A_COUNT_] = {
#define CZ_FIXTURE_SPEC(id, type, member, shown, description) {CZ_TRACE_ATTR_##id, OTF2_TYPE_##type},
    CZ_TRACE_ATTRIBUTES(CZ_FIXTURE_SPEC)
#undef CZ_FIXTURE_SPEC
};

// One attribute in the OTF2 type the tracer writes it as.
template <class T>
void addAttribute(OTF2_AttributeList *list, uint32_t ref, const std::optional<T> &value) {
  if (!value) return;
  switch (kAttrs[ref].type) {
  case OTF2_TYPE_UINT8: OTF2_AttributeList_AddUint8(list, ref, uint8_t(*value)); break;
  case OTF2_TYPE_UINT32: OTF2_AttributeList_AddUint32(list, ref, uint32_t(*value)); break;
  case OTF2_TYPE_UINT64: OTF2_AttributeList_AddUint64(list, ref, uint64_t(*value)); break;
  case OTF2_TYPE_COMM: OTF2_AttributeList_AddCommRef(list, ref, uint32_t(*value)); break;
  default: break; // a type the list does not use
  }
}

// The event's attributes; its site as SITE or RETURN_ADDRESS by siteKind.
void fillAttributes(OTF2_AttributeList *list, const Event &e) {
  OTF2_AttributeList_RemoveAllAttributes(list);
  const bool returnAddress = e.siteKind.value_or(0) == 1;
#define CZ_FIXTURE_ADD(id, type, member, shown, description)                                       \
  if ((A_##id != A_SITE || !returnAddress) && (A_##id != A_RETURN_ADDRESS || returnAddress))       \
    addAttribute(list, A_##id, e.member);
  CZ_TRACE_ATTRIBUTES(CZ_FIXTURE_ADD)
#undef CZ_FIXTURE_ADD
}

OTF2_ErrorCode writeEvent(OTF2_EvtWriter *w, OTF2_AttributeList *a, const Event &e,
                          bool foreign) {
  fillAttributes(a, e);
  if (foreign) OTF2_AttributeList_AddDouble(a, A_FOREIGN, 1.5);
  uint32_t peer = e.peer ? *e.peer : OTF2_UNDEFINED_UINT32;
  uint64_t req = e.request ? *e.request : OTF2_UNDEFINED_UINT64;
  switch (e.kind) {
  case EventKind::Send:
    return OTF2_EvtWriter_MpiSend(w, a, e.timestamp, peer, e.comm, e.tag, e.bytes);
  case EventKind::Isend:
    return OTF2_EvtWriter_MpiIsend(w, a, e.timestamp, peer, e.comm, e.tag, e.bytes, req);
  case EventKind::IsendComplete:
    return OTF2_EvtWriter_MpiIsendComplete(w, a, e.timestamp, req);
  case EventKind::Recv:
    return OTF2_EvtWriter_MpiRecv(w, a, e.timestamp, peer, e.comm, e.tag, e.bytes);
  case EventKind::IrecvRequest:
    return OTF2_EvtWriter_MpiIrecvRequest(w, a, e.timestamp, req);
  case EventKind::Irecv:
    return OTF2_EvtWriter_MpiIrecv(w, a, e.timestamp, peer, e.comm, e.tag, e.bytes, req);
  case EventKind::RequestCancelled:
    return OTF2_EvtWriter_MpiRequestCancelled(w, a, e.timestamp, req);
  case EventKind::CollectiveBegin:
    return OTF2_EvtWriter_MpiCollectiveBegin(w, a, e.timestamp);
  case EventKind::CollectiveEnd:
    return OTF2_EvtWriter_MpiCollectiveEnd(w, a, e.timestamp, OTF2_CollectiveOp(e.collectiveOp),
                                           e.comm, peer, e.bytes, e.bytesReceived);
  case EventKind::Enter:
    return OTF2_EvtWriter_Enter(w, a, e.timestamp, e.region);
  case EventKind::Leave:
    return OTF2_EvtWriter_Leave(w, a, e.timestamp, e.region);
  }
  return OTF2_ERROR_INVALID_ARGUMENT;
}

Event ev(EventKind k, uint64_t t) {
  Event e;
  e.kind = k;
  e.timestamp = t;
  return e;
}

} // namespace

FixtureSpec standardSpec() {
  FixtureSpec s;
  s.ranks = 2;
  s.regions = {"MPI_Comm_split"};
  s.comms.push_back({(0u << 20) | 2u, "split 0", {1, 0}, 0}); // reversed order
  const uint64_t t0 = 1000000000;
  s.events.resize(2);
  // Rank 0: blocking send to 1, isend/complete, recv, a collective,
  // comm split (Enter/Leave with new_comm), a send on the new comm, a kept
  // block, a cancelled irecv.
  {
    auto &v = s.events[0];
    Event e = ev(EventKind::Send, t0 + 12345);
    e.peer = 1, e.peerWorld = 1, e.comm = 0, e.tag = 7, e.bytes = 64;
    e.crc32 = 0xdeadbeef, e.address = 0x7ffd1000, e.prefix = 0x0706050403020100ull;
    e.site = 42, e.siteKind = 0, e.count = 16, e.datatype = 7 /*INT*/;
    v.push_back(e);
    e = ev(EventKind::Isend, t0 + 20000);
    e.peer = 1, e.peerWorld = 1, e.comm = 0, e.tag = 8, e.bytes = 0, e.request = 5;
    e.crc32 = 0, e.address = 0x7ffd2000, e.prefix = 0, e.site = 0x401234, e.siteKind = 1;
    e.count = 0, e.datatype = 1;
    v.push_back(e);
    e = ev(EventKind::IsendComplete, t0 + 21000);
    e.request = 5;
    v.push_back(e);
    e = ev(EventKind::Recv, t0 + 30000);
    e.peer = 1, e.peerWorld = 1, e.comm = 0, e.tag = 9, e.bytes = 8;
    e.crc32 = 0x12345678, e.address = 0x7ffd3000, e.prefix = 0xffull, e.site = 43;
    e.siteKind = 0, e.count = 1, e.datatype = 14 /*DOUBLE*/;
    e.caller = 0x401a2b; // a site in the program's own receive wrapper
    e.anySource = 1;     // posted with MPI_ANY_SOURCE
    v.push_back(e);
    e.caller.reset();
    e.anySource.reset();
    v.push_back(ev(EventKind::CollectiveBegin, t0 + 40000));
    e = ev(EventKind::CollectiveEnd, t0 + 41000);
    e.collectiveOp = OTF2_COLLECTIVE_OP_BCAST, e.comm = 0, e.peer = 0, e.peerWorld = 0;
    e.bytes = 32, e.bytesReceived = 0;
    v.push_back(e);
    e = ev(EventKind::Enter, t0 + 50000);
    e.region = 0;
    v.push_back(e);
    e = ev(EventKind::Leave, t0 + 51000);
    e.region = 0, e.newComm = 2, e.color = 3, e.site = 12, e.siteKind = 0;
    v.push_back(e);
    e = ev(EventKind::Send, t0 + 60000);  // comm 2: rank 0 is comm rank 1
    e.peer = 0, e.peerWorld = 1, e.comm = 2, e.tag = 0, e.bytes = 4;
    e.crc32 = 0xcafe, e.site = 44, e.siteKind = 0, e.count = 1, e.datatype = 7;
    v.push_back(e);
    e = ev(EventKind::Send, t0 + 61000);  // kept block (cz_send_to_self)
    e.peer = 0, e.peerWorld = 0, e.comm = 0, e.tag = 0, e.bytes = 16, e.kept = 1;
    e.crc32 = 0xabcdef01;
    v.push_back(e);
    e = ev(EventKind::IrecvRequest, t0 + 70000);
    e.request = 6;
    v.push_back(e);
    e = ev(EventKind::RequestCancelled, t0 + 71000);
    e.request = 6;
    v.push_back(e);
  }
  // Rank 1: the matching side, without peer_world attributes on some
  // records (the reader translates through the comm group).
  {
    auto &v = s.events[1];
    Event e = ev(EventKind::Recv, t0 + 12500);
    e.peer = 0, e.peerWorld = 0, e.comm = 0, e.tag = 7, e.bytes = 64;
    e.crc32 = 0xdeadbeef, e.address = 0x7ffe1000, e.prefix = 0x0706050403020100ull;
    e.site = 52, e.siteKind = 0, e.count = 16, e.datatype = 7;
    v.push_back(e);
    e = ev(EventKind::IrecvRequest, t0 + 19000);
    e.request = 11;
    v.push_back(e);
    e = ev(EventKind::Irecv, t0 + 22000);
    e.peer = 0, e.comm = 0, e.tag = 8, e.bytes = 0, e.request = 11, e.crc32 = 0;
    v.push_back(e);
    e = ev(EventKind::Send, t0 + 29000);
    e.peer = 0, e.comm = 0, e.tag = 9, e.bytes = 8, e.crc32 = 0x12345678;
    v.push_back(e);
    v.push_back(ev(EventKind::CollectiveBegin, t0 + 40000));
    e = ev(EventKind::CollectiveEnd, t0 + 42000);
    e.collectiveOp = OTF2_COLLECTIVE_OP_BCAST, e.comm = 0, e.peer = 0, e.bytes = 0;
    e.bytesReceived = 32;
    v.push_back(e);
    e = ev(EventKind::Enter, t0 + 50000);
    e.region = 0;
    v.push_back(e);
    e = ev(EventKind::Leave, t0 + 51500);
    e.region = 0, e.newComm = 2, e.color = 3, e.site = 12, e.siteKind = 0;
    v.push_back(e);
    e = ev(EventKind::Recv, t0 + 60500);  // comm 2: sender comm rank 1 = world 0
    e.peer = 1, e.comm = 2, e.tag = 0, e.bytes = 4, e.crc32 = 0xcafe;
    v.push_back(e);
  }
  return s;
}

void addBulkMessages(FixtureSpec &spec, int n) {
  spec.events.resize(std::max(spec.ranks, 2));
  uint64_t t = 2000000000;
  for (int i = 0; i < n; i++) {
    Event e = ev(EventKind::Send, t + 1000 * uint64_t(i));
    e.peer = 1, e.peerWorld = 1, e.comm = 0, e.tag = uint32_t(i), e.bytes = 8;
    e.crc32 = 0x1000u + uint32_t(i), e.site = 100, e.siteKind = 0;
    spec.events[0].push_back(e);
    e.kind = EventKind::Recv, e.timestamp += 500, e.peer = 0, e.peerWorld = 0;
    spec.events[1].push_back(e);
  }
}

std::string writeFixture(const std::string &dir, const FixtureSpec &spec) {
  if (mkdir(dir.c_str(), 0755) != 0) return "cannot create " + dir;
  OTF2_Archive *ar = OTF2_Archive_Open(dir.c_str(), CZ_TRACE_ARCHIVE, OTF2_FILEMODE_WRITE,
                                       spec.eventChunkSize, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                       OTF2_COMPRESSION_NONE);
  if (!ar) return "OTF2_Archive_Open failed";
  OTF2_Archive_SetFlushCallbacks(ar, &kFlush, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  OTF2_Archive_SetCreator(ar, "collectivize test fixture");
  OTF2_Archive_OpenEvtFiles(ar);

  uint64_t first = UINT64_MAX, last = 0;
  std::vector<uint64_t> counts(spec.ranks, 0);
  OTF2_AttributeList *attrs = OTF2_AttributeList_New();
  for (int r = 0; r < spec.ranks; r++) {
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, r);
    if (r < int(spec.events.size()))
      for (size_t k = 0; k < spec.events[r].size(); k++) {
        const Event &e = spec.events[r][k];
        bool foreign = std::find(spec.foreignAttribute.begin(), spec.foreignAttribute.end(),
                                 std::make_pair(r, k)) != spec.foreignAttribute.end();
        if (writeEvent(w, attrs, e, foreign) != OTF2_SUCCESS) return "writing an event failed";
        first = std::min(first, e.timestamp);
        last = std::max(last, e.timestamp);
        counts[r]++;
      }
    OTF2_Archive_CloseEvtWriter(ar, w);
  }
  OTF2_AttributeList_Delete(attrs);
  OTF2_Archive_CloseEvtFiles(ar);
  if (first == UINT64_MAX) first = 0;

  // Local definition files (empty) so otf2-print finds them.
  OTF2_Archive_OpenDefFiles(ar);
  for (int r = 0; r < spec.ranks; r++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, r);
    OTF2_Archive_CloseDefWriter(ar, dw);
  }
  OTF2_Archive_CloseDefFiles(ar);

  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, first, last - first + 1,
                                            OTF2_UNDEFINED_TIMESTAMP);
  uint32_t str = 0;
  std::map<std::string, uint32_t> strings;
  auto S = [&](const std::string &s) {
    auto it = strings.find(s);
    if (it != strings.end()) return it->second;
    OTF2_GlobalDefWriter_WriteString(g, str, s.c_str());
    strings[s] = str;
    return str++;
  };
  S("");
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S("localhost"), S("node"),
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (int r = 0; r < spec.ranks; r++) {
    std::string name = "rank " + std::to_string(r);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, r, S(name), OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, r, S(name), OTF2_LOCATION_TYPE_CPU_THREAD, counts[r], r);
  }
  for (size_t i = 0; i < spec.regions.size(); i++)
    OTF2_GlobalDefWriter_WriteRegion(g, i, S(spec.regions[i]), S(spec.regions[i]), S(""),
                                     OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                     OTF2_REGION_FLAG_NONE, S(""), 0, 0);
  for (uint32_t a = 0; a < A_COUNT_; a++)
    OTF2_GlobalDefWriter_WriteAttribute(g, a, S(kAttrs[a].name), S(""), kAttrs[a].type);
  if (!spec.foreignAttribute.empty())
    OTF2_GlobalDefWriter_WriteAttribute(g, A_FOREIGN, S("other_tool::weight"), S(""),
                                        OTF2_TYPE_DOUBLE);
  // Groups: 0 = all locations (MPI ranks), 1 = world, 2 = self, 3+ = comms.
  std::vector<uint64_t> all(spec.ranks);
  for (int r = 0; r < spec.ranks; r++) all[r] = r;
  OTF2_GlobalDefWriter_WriteGroup(g, 0, S("MPI ranks"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, spec.ranks, all.data());
  OTF2_GlobalDefWriter_WriteGroup(g, 1, S("MPI_COMM_WORLD"), OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, spec.ranks, all.data());
  OTF2_GlobalDefWriter_WriteGroup(g, 2, S("MPI_COMM_SELF"), OTF2_GROUP_TYPE_COMM_SELF,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, nullptr);
  OTF2_GlobalDefWriter_WriteComm(g, 0, S("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM,
                                 OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteComm(g, 1, S("MPI_COMM_SELF"), 2, OTF2_UNDEFINED_COMM,
                                 OTF2_COMM_FLAG_NONE);
  uint32_t group = 3;
  for (const FixtureComm &c : spec.comms) {
    std::vector<uint64_t> m(c.members.begin(), c.members.end());
    OTF2_GlobalDefWriter_WriteGroup(g, group, S(c.name), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, m.size(), m.data());
    OTF2_GlobalDefWriter_WriteComm(g, c.ref, S(c.name), group, c.parent, OTF2_COMM_FLAG_NONE);
    group++;
  }
  OTF2_Archive_CloseGlobalDefWriter(ar, g);
  if (OTF2_Archive_Close(ar) != OTF2_SUCCESS) return "OTF2_Archive_Close failed";

  if (spec.writeManifest) {
    std::ofstream m(dir + "/" CZ_TRACE_MANIFEST);
    m << "format " << CZ_TRACE_FORMAT_VERSION << "\nranks " << spec.ranks
      << "\nstarted 1700000000\ncommand " << spec.command << "\n";
  }
  for (int r = 0; r < spec.ranks; r++) {
    if (r < int(spec.done.size()) && !spec.done[r]) continue;
    char name[64];
    std::snprintf(name, sizeof name, CZ_TRACE_DONE_FMT, r);
    std::ofstream(dir + "/" + name) << "done\n";
  }
  return "";
}

} // namespace cz::trace::fixture
