// result.cpp: Error messages, event kind names, event comparison.
#include "collectivize/trace_reader.h"
#include "collectivize_trace_format.h"

namespace cz::trace {

std::string Error::message() const {
  std::string m;
  if (!file.empty()) m = file + ": ";
  if (offset >= 0) m += "offset " + std::to_string(offset) + ": ";
  return m + reason;
}

const char *eventKindName(EventKind kind) {
  switch (kind) {
  case EventKind::Send: return "send";
  case EventKind::Isend: return "isend";
  case EventKind::IsendComplete: return "isend_complete";
  case EventKind::Recv: return "recv";
  case EventKind::IrecvRequest: return "irecv_request";
  case EventKind::Irecv: return "irecv";
  case EventKind::RequestCancelled: return "request_cancelled";
  case EventKind::CollectiveBegin: return "collective_begin";
  case EventKind::CollectiveEnd: return "collective_end";
  case EventKind::Enter: return "enter";
  case EventKind::Leave: return "leave";
  }
  return "?";
}

bool Event::operator==(const Event &o) const {
  bool same = kind == o.kind && rank == o.rank && timestamp == o.timestamp && peer == o.peer &&
              comm == o.comm && tag == o.tag && bytes == o.bytes &&
              bytesReceived == o.bytesReceived && request == o.request &&
              collectiveOp == o.collectiveOp && region == o.region && siteKind == o.siteKind;
#define CZ_SAME_ATTRIBUTE(id, type, member, shown, description) same = same && member == o.member;
  CZ_TRACE_ATTRIBUTES(CZ_SAME_ATTRIBUTE)
#undef CZ_SAME_ATTRIBUTE
  return same;
}

std::optional<uint32_t> Definitions::worldRank(uint32_t comm, uint32_t commRank, int rank) const {
  auto it = comms.find(comm);
  if (it == comms.end()) return std::nullopt;
  if (it->second.isSelf) {
    if (commRank == 0) return uint32_t(rank);
    return std::nullopt;
  }
  if (commRank >= it->second.members.size()) return std::nullopt;
  return it->second.members[commRank];
}

std::string Definitions::regionName(uint32_t region) const {
  auto it = regions.find(region);
  return it == regions.end() ? "region " + std::to_string(region) : it->second.name;
}

} // namespace cz::trace
