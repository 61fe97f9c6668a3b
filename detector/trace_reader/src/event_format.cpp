// event_format.cpp: one readable line per event (`collectivize trace dump`).
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "collectivize_trace_format.h"

#include "collectivize/trace_reader.h"

namespace cz::trace {
namespace {

const char *const kCollectiveOps[] = {
    "barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv",
    "alltoall", "alltoallv", "alltoallw", "allreduce", "reduce", "reduce_scatter", "scan",
    "exscan", "reduce_scatter_block", "create_handle", "destroy_handle", "allocate",
    "deallocate", "create_handle_and_allocate", "destroy_handle_and_deallocate"};

// cz_trace_type names, in enum order (collectivize_trace_format.h).
const char *const kTypes[] = {
    "derived", "BYTE", "CHAR", "SIGNED_CHAR", "UNSIGNED_CHAR", "SHORT", "UNSIGNED_SHORT", "INT",
    "UNSIGNED", "LONG", "UNSIGNED_LONG", "LONG_LONG", "UNSIGNED_LONG_LONG", "FLOAT", "DOUBLE",
    "LONG_DOUBLE", "PACKED", "INT8_T", "INT16_T", "INT32_T", "INT64_T", "UINT8_T", "UINT16_T",
    "UINT32_T", "UINT64_T", "C_BOOL", "WCHAR", "2INT", "FLOAT_INT", "DOUBLE_INT", "LONG_INT",
    "SHORT_INT", "LONG_DOUBLE_INT", "INTEGER", "REAL", "DOUBLE_PRECISION", "COMPLEX",
    "DOUBLE_COMPLEX", "LOGICAL", "CHARACTER", "INTEGER4", "INTEGER8", "REAL4", "REAL8"};

} // namespace

std::string collectiveCallName(uint32_t op) {
  // Ops from create_handle on are OTF2's own (one-sided, memory), not calls.
  constexpr uint32_t kMpiOps = 17;
  if (op >= kMpiOps) return "";
  std::string name = std::string("MPI_") + kCollectiveOps[op];
  name[4] = char(name[4] - 'a' + 'A');
  return name;
}

const char *datatypeName(uint32_t code) {
  return code < sizeof kTypes / sizeof kTypes[0] ? kTypes[code] : "derived";
}

namespace {

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string peerText(const Event &e, const char *word) {
  std::string s = word;
  s += " ";
  s += e.peer ? std::to_string(*e.peer) : "?";
  if (e.peerWorld) s += " (world " + std::to_string(*e.peerWorld) + ")";
  return s;
}

std::string commText(uint32_t comm) {
  return comm == kNoComm ? "comm -" : "comm " + std::to_string(comm);
}

// How an attribute is printed: CZ_TRACE_ATTRIBUTES' SHOWN column.
enum class Shown { HEX, HEX_FIXED, DECIMAL, SIGNED, DATATYPE, FLAG, COMM, SITE, WITH_SITE, WITH_PEER };

// " key=value" for an attribute the event carries, the key being its name
// without the "collectivize::" prefix.
template <class T>
void showAttribute(std::string &body, const char *name, Shown how, const Event &e,
                   const std::optional<T> &value) {
  if (!value) return;
  const char *colon = std::strrchr(name, ':');
  const char *key = colon ? colon + 1 : name;
  uint64_t u = uint64_t(*value);
  switch (how) {
  case Shown::HEX: body += fmt(" %s=0x%" PRIx64, key, u); break;
  case Shown::HEX_FIXED: body += fmt(" %s=0x%0*" PRIx64, key, int(sizeof(T) * 2), u); break;
  case Shown::DECIMAL: body += fmt(" %s=%" PRIu64, key, u); break;
  case Shown::SIGNED: body += fmt(" %s=%" PRId64, key, int64_t(*value)); break;
  case Shown::DATATYPE:
    if (u < sizeof kTypes / sizeof *kTypes) body += fmt(" %s=%s", key, kTypes[u]);
    else body += fmt(" %s=%" PRIu64, key, u);
    break;
  case Shown::FLAG:
    if (u) body += fmt(" %s", key);
    break;
  case Shown::COMM:
    if (u == kCommNull) body += fmt(" %s=null", key);
    else body += fmt(" %s=%" PRIu64, key, u);
    break;
  case Shown::SITE:
    if (e.siteKind && *e.siteKind == 1) body += fmt(" %s=ra:0x%" PRIx64, key, u);
    else body += fmt(" %s=%" PRIu64, key, u);
    break;
  case Shown::WITH_SITE: // printed as the site
  case Shown::WITH_PEER: // printed with the peer: "to 3 (world 5)"
    break;
  }
}

} // namespace

std::string formatEvent(const Trace &trace, const Event &e) {
  std::string s = fmt("rank %d  t=%.3fus  %s", e.rank, trace.microsecondsSinceStart(e.timestamp),
                      eventKindName(e.kind));
  std::string body;
  switch (e.kind) {
  case EventKind::Send:
  case EventKind::Isend:
    body = peerText(e, "to") + " " + commText(e.comm) + fmt(" tag %u bytes %" PRIu64, e.tag, e.bytes);
    break;
  case EventKind::Recv:
  case EventKind::Irecv:
    body = peerText(e, "from") + " " + commText(e.comm) + fmt(" tag %u bytes %" PRIu64, e.tag, e.bytes);
    break;
  case EventKind::CollectiveEnd:
    body = (e.collectiveOp < sizeof kCollectiveOps / sizeof *kCollectiveOps
                ? std::string(kCollectiveOps[e.collectiveOp])
                : "op " + std::to_string(e.collectiveOp)) +
           " " + commText(e.comm);
    if (e.peer) body += " " + peerText(e, "root");
    body += fmt(" sent %" PRIu64 " received %" PRIu64, e.bytes, e.bytesReceived);
    break;
  case EventKind::Enter:
  case EventKind::Leave:
    body = trace.definitions().regionName(e.region);
    break;
  default:
    break;
  }
  if (e.request) body += (body.empty() ? "" : " ") + fmt("request %" PRIu64, *e.request);
#define CZ_SHOW_ATTRIBUTE(id, type, member, shown, description) \
  showAttribute(body, CZ_TRACE_ATTR_##id, Shown::shown, e, e.member);
  CZ_TRACE_ATTRIBUTES(CZ_SHOW_ATTRIBUTE)
#undef CZ_SHOW_ATTRIBUTE
  while (!body.empty() && body[0] == ' ') body.erase(0, 1);
  if (!body.empty()) s += "  " + body;
  return s;
}

} // namespace cz::trace
