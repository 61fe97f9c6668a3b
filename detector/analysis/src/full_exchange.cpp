// full_exchange.cpp: a round of messages in which every member sends its
// one payload to every other member is an allgather, whatever order the
// receivers keep the blocks in.
//
// Tiling reads collectives from buffer layouts, one member at a time. In a
// linear allgather that receives rank me+d's block into slot d, the
// receivers whose rotation happens to look like rank order with a hole at
// their own place (rank 0, and rank P-1 with the hole past the end) are
// receive-tiled and would each give a gather, claiming their messages; the
// allgather that explains every message of the round was then never seen.
// Its post-condition (every member's block reaches every other member) is
// read off the messages directly; the layout only matters for the rewrite.
#include <algorithm>

#include "detect_internal.h"
#include "receive_layout.h"

namespace cz::detect::detail {

ReceiveLayout fullExchangeLayout(const MessageTable &t, const Group &g,
                                 const std::vector<uint32_t> &round) {
  const size_t p = g.members.size();
  // One message per ordered pair, and at most one to self per member: most
  // rounds are ruled out here, before anything is allocated.
  if (round.size() < p * (p - 1) || round.size() > p * p) return ReceiveLayout::NotObserved;
  // Per sender: its payload (CRC) and how many other members it reached.
  std::vector<uint32_t> crc(p, 0);
  std::vector<size_t> reached(p, 0), toSelf(p, 0);
  std::vector<uint8_t> started(p, 0);
  std::vector<ReceivedBlock> blocks;
  uint64_t n = 0;
  for (uint32_t i : round) {
    const Message &m = t.messages[i];
    const int from = rankIn(g, m.src), to = rankIn(g, m.dst);
    // Empty messages are barriers' business; unhashed ones prove nothing.
    if (from < 0 || to < 0 || !m.hashed || m.bytes == 0) return ReceiveLayout::NotObserved;
    if (n == 0) n = m.bytes;
    if (m.bytes != n) return ReceiveLayout::NotObserved;
    const size_t s = size_t(from);
    if (!started[s]) started[s] = 1, crc[s] = m.crc;
    // One payload per sender, the same to everyone (a scatter or an
    // alltoall sends each member a different block).
    if (m.crc != crc[s]) return ReceiveLayout::NotObserved;
    if (m.src == m.dst) {
      toSelf[s]++; // code that loops over every rank, itself included
      continue;
    }
    reached[s]++;
    blocks.push_back({m.dst, m.src, m.recvAddress});
  }
  // A round has at most one message per ordered pair, so p - 1 messages
  // to others means every other member.
  for (size_t s = 0; s < p; s++)
    if (reached[s] + 1 != p || toSelf[s] > 1) return ReceiveLayout::NotObserved;
  // The blocks must stay apart at every receiver: received one after the
  // other into one place, they are consumed on arrival (a linear
  // allreduce looks the same on the wire) and the reductions decide.
  return receiveLayout(g, std::move(blocks), n);
}

} // namespace cz::detect::detail
