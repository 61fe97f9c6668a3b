// scattered_first.cpp: an allgather whose blocks were scattered just
// before it is a broadcast in two steps (van de Geijn's long broadcast:
// HPL's BCAST 4 spreads the panel's pieces, then rolls them around the
// ring). The roll alone proves an allgather only if each member's block is
// its own data; when every member but one received, just before sending
// its first block, a message from the group that no collective explains,
// that message may hold the block (pieces of one buffer, repacked, travel
// with CRCs the trace never saw whole). Ambiguous then (scattered_first);
// per-block CRCs (`--block-bytes`) follow the pieces.
#include <algorithm>

#include "detect_internal.h"
#include "rank_activity.h"

namespace cz::detect::detail {

namespace {

// The last message `rank` received before position `pos`, if it came from
// a member of the group on the instance's communicator, is no message of
// the instance, none that a collective explains, and holds at least
// `bytes`: the data `rank` then sends may be that message's.
bool fedJustBefore(const MessageTable &t, const RankActivity &activity,
                   const std::vector<uint8_t> &claimed, const Instance &in,
                   const std::vector<uint32_t> &own, uint32_t rank, uint32_t pos, uint64_t bytes) {
  if (pos == 0) return false;
  const std::vector<Receipt> &got = activity.receipts(rank);
  size_t next = activity.firstReceiptAfter(rank, pos - 1); // the first at or after pos
  if (next == 0) return false;
  uint32_t msg = got[next - 1].msg;
  const Message &m = t.messages[msg];
  return !claimed[msg] && m.comm == in.comm && m.bytes >= bytes &&
         std::binary_search(in.participants.begin(), in.participants.end(), m.src) &&
         !std::binary_search(own.begin(), own.end(), msg);
}

} // namespace

void weighScatteredFirst(const MessageTable &t, const RankActivity &activity,
                         const std::vector<uint8_t> &claimed, std::vector<Instance> &instances) {
  for (Instance &in : instances) {
    bool bcast = in.kind == Kind::Bcast;
    if ((!bcast && in.kind != Kind::Allgather) || in.participants.size() < 3) continue;
    std::vector<uint32_t> own = in.messages;
    std::sort(own.begin(), own.end());
    // Each member's first send in the instance, and its size.
    std::vector<uint32_t> firstSend(in.participants.size(), UINT32_MAX);
    std::vector<uint64_t> blockBytes(in.participants.size(), 0);
    for (uint32_t i : in.messages) {
      const Message &m = t.messages[i];
      auto it = std::lower_bound(in.participants.begin(), in.participants.end(), m.src);
      if (it == in.participants.end() || *it != m.src) continue;
      size_t k = size_t(it - in.participants.begin());
      if (m.sendPos < firstSend[k]) firstSend[k] = m.sendPos, blockBytes[k] = m.bytes;
    }
    std::string why;
    if (bcast) {
      // The root's data: just received from a member? (one piece of a
      // long broadcast's roll, which root families may make an allgather)
      auto it = std::lower_bound(in.participants.begin(), in.participants.end(), in.rootWorld);
      if (it == in.participants.end() || *it != in.rootWorld) continue;
      size_t k = size_t(it - in.participants.begin());
      if (firstSend[k] == UINT32_MAX ||
          !fedJustBefore(t, activity, claimed, in, own, in.rootWorld, firstSend[k], blockBytes[k]))
        continue;
      why = "the root received, just before it sent, a message from the group that no collective "
            "explains and that may hold what it sent: the data may start at another rank (a "
            "scatter then an allgather, a long broadcast's spread and roll, is one broadcast)";
    } else {
      size_t fed = 0;
      for (size_t k = 0; k < in.participants.size(); k++)
        if (firstSend[k] != UINT32_MAX &&
            fedJustBefore(t, activity, claimed, in, own, in.participants[k], firstSend[k], blockBytes[k]))
          fed++;
      if (fed + 1 < in.participants.size()) continue;
      why = "every member but one received, just before it sent its first block, a message from "
            "the group that no collective explains and that may hold that block: scattered "
            "pieces gathered again are one broadcast (a long broadcast's spread and roll)";
    }
    if (bcast) {
      in.fedRoot = true; // a bcast from that root is one all the same
      continue;
    }
    in.unproven |= kScatteredFirst;
    in.note = in.note.empty() ? why : why + "; " + in.note;
  }
}

} // namespace cz::detect::detail
