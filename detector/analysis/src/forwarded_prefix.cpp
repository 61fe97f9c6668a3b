// forwarded_prefix.cpp: a prefix reduction whose combining happens at the
// receivers: along the chain 0 -> 1 -> ... -> P-1 (communicator order) each
// member sends its own value and passes on, unchanged, every value it
// received from below, so member r receives the values of all members
// 0..r-1 and combines them itself (a course's "ring" prefix sum).
//
// Shape: every message of one size and datatype on the communicator goes
// from a member to the next one, and in each instance member q sends q+1
// messages (the pair q -> q+1 carries I*(q+1) for I instances, cut in
// order). Data: what q sends is what it received from q-1 (each forward
// after its receipt) plus exactly one value of its own. The values do not
// all match (equal data passed along a chain is a broadcast's pipeline),
// and the last member does not receive them into one buffer in rank order
// (a gather along the chain, whose members only pass data on: the same
// messages, left to the gathering rule).
//
// The operation is applied where no message shows it, and whether a member
// adds its own value (MPI_Scan) or not (MPI_Exscan) is local as well: the
// match is a scan, always ambiguous (reduction_op), and its note says so.
#include <algorithm>
#include <map>
#include <tuple>

#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

using Item = std::pair<uint32_t, uint64_t>; // (crc, bytes)

Item itemOf(const Message &m) { return {m.crc, m.bytes}; }

// Member q's sends of one instance against what it received from q-1:
// every receipt forwarded after it arrived, and one value of its own.
// origins: the member each received value started at (in), then each
// sent one's (out; q for its own).
bool forwardsAllPlusOwn(const MessageTable &t, const std::vector<uint32_t> &received,
                        const std::vector<uint32_t> &sent, uint32_t q,
                        std::vector<uint32_t> &origins) {
  if (sent.size() != received.size() + 1) return false;
  std::vector<uint8_t> used(received.size(), 0);
  std::vector<uint32_t> sentOrigins;
  bool own = false;
  for (uint32_t s : sent) { // ascending: in send order
    const Message &x = t.messages[s];
    size_t pick = received.size();
    for (size_t k = 0; k < received.size(); k++) {
      const Message &r = t.messages[received[k]];
      if (!used[k] && itemOf(r) == itemOf(x) && r.recvPos < x.sendPos &&
          (pick == received.size() || r.recvPos < t.messages[received[pick]].recvPos))
        pick = k;
    }
    if (pick < received.size()) {
      used[pick] = 1;
      sentOrigins.push_back(origins[pick]);
    } else if (own) {
      return false;
    } else {
      own = true;
      sentOrigins.push_back(q);
    }
  }
  origins = std::move(sentOrigins);
  return own;
}

// The last member received every value into one buffer in rank order
// (origin q's at base + q * bytes): a gather along the chain, whose
// members only pass data on; left to the gathering rule.
bool gatherLayout(const MessageTable &t, const std::vector<uint32_t> &received,
                  const std::vector<uint32_t> &origins) {
  const Message &m0 = t.messages[received[0]];
  uint64_t base = m0.recvAddress - origins[0] * m0.bytes;
  for (size_t k = 0; k < received.size(); k++) {
    const Message &m = t.messages[received[k]];
    if (m.recvAddress != base + origins[k] * m.bytes) return false;
  }
  return true;
}

void analyzeKey(const MessageTable &t, const Group &g, const std::vector<uint32_t> &msgs,
                std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  size_t p = g.members.size();
  std::vector<std::vector<uint32_t>> onPair(p - 1); // q -> q+1, in send order
  for (uint32_t i : msgs) {
    int a = rankIn(g, t.messages[i].src), b = rankIn(g, t.messages[i].dst);
    if (a < 0 || b != a + 1) return;
    onPair[size_t(a)].push_back(i);
  }
  size_t instances = onPair[0].size();
  if (instances == 0) return;
  for (size_t q = 0; q + 1 < p; q++)
    if (onPair[q].size() != instances * (q + 1)) return;
  std::vector<Instance> found; // all instances hold, or none is reported
  for (size_t i = 0; i < instances; i++) {
    auto slice = [&](size_t q) {
      auto from = onPair[q].begin() + ptrdiff_t(i * (q + 1));
      return std::vector<uint32_t>(from, from + ptrdiff_t(q + 1));
    };
    Instance in;
    bool varied = false;
    uint32_t firstCrc = t.messages[onPair[0][i]].crc;
    std::vector<uint32_t> origins{0}; // member 0 sends its own value only
    for (size_t q = 0; q + 1 < p; q++) {
      std::vector<uint32_t> sent = slice(q);
      if (q > 0 && !forwardsAllPlusOwn(t, slice(q - 1), sent, uint32_t(q), origins)) return;
      for (uint32_t m : sent) varied |= t.messages[m].crc != firstCrc;
      in.messages.insert(in.messages.end(), sent.begin(), sent.end());
    }
    if (!varied) return; // one value passed along: a pipeline's broadcast
    if (gatherLayout(t, slice(p - 2), origins)) return;
    const Message &first = t.messages[onPair[0][i]];
    in.kind = Kind::Scan;
    in.unproven |= kReductionOp;
    in.note = "each member passes on, unchanged, its own value and every value it received from "
              "the member below: every member receives the values of all members below it and "
              "combines them itself, which no message shows (MPI_Scan if it adds its own value, "
              "MPI_Exscan if not; the operation is unknown)";
    in.comm = first.comm;
    in.bytes = first.bytes;
    in.count = first.sendCount;
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    std::sort(in.messages.begin(), in.messages.end());
    found.push_back(std::move(in));
  }
  for (Instance &in : found) {
    for (uint32_t m : in.messages) claimed[m] = 1;
    out.push_back(std::move(in));
  }
}

} // namespace

void findForwardedPrefixes(const MessageTable &t, const DetectOptions &o,
                           std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::map<std::tuple<uint32_t, uint64_t, uint32_t>, std::vector<uint32_t>> byKey;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i] || !m.hashed || m.bytes == 0 || m.src == m.dst) continue;
    const Group *g = t.group(m.comm);
    if (g && int(g->members.size()) >= o.minGroup) byKey[{m.comm, m.bytes, m.sendType}].push_back(i);
  }
  for (auto &[key, msgs] : byKey) analyzeKey(t, *t.group(std::get<0>(key)), msgs, claimed, out);
}

} // namespace cz::detect::detail
