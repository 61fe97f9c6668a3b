// full_exchange.cpp: a round of messages in which every member sends its
// one payload to every other member is an allgather, and one in which it
// sends each other member a block of its own an alltoall, whatever order
// the senders and receivers keep the blocks in.
//
// Tiling reads collectives from buffer layouts, one member at a time. In a
// linear allgather that receives rank me+d's block into slot d, the
// receivers whose rotation happens to look like rank order with a hole at
// their own place (rank 0, and rank P-1 with the hole past the end) are
// receive-tiled and would each give a gather, claiming their messages; the
// allgather that explains every message of the round was then never seen.
// Its post-condition (every member's block reaches every other member) is
// read off the messages directly; the layout only matters for the rewrite.
// A linear alltoall with both buffers in distance order fooled tiling the
// same way; each of its messages is the block its sender has for its
// receiver, which is the alltoall's post-condition.
#include <algorithm>

#include "detect_internal.h"
#include "receive_layout.h"

namespace cz::detect::detail {

namespace {

// Every receiver took all its blocks at one address (one scratch buffer).
bool oneAddressPerReceiver(std::vector<ReceivedBlock> blocks) {
  std::sort(blocks.begin(), blocks.end(), [](const ReceivedBlock &a, const ReceivedBlock &b) {
    return a.receiver < b.receiver;
  });
  for (size_t i = 1; i < blocks.size(); i++)
    if (blocks[i].receiver == blocks[i - 1].receiver && blocks[i].address != blocks[i - 1].address)
      return false;
  return !blocks.empty();
}

} // namespace

FullExchange fullExchange(const MessageTable &t, const Group &g, const std::vector<uint32_t> &round) {
  FullExchange out;
  const size_t p = g.members.size();
  // One message per ordered pair, and at most one to self per member: most
  // rounds are ruled out here, before anything is allocated.
  if (p < 2 || round.size() < p * (p - 1) || round.size() > p * p) return out;
  // Per sender: its first payload (CRC), whether all were that one, and how
  // many other members it reached.
  std::vector<uint32_t> crc(p, 0);
  std::vector<size_t> reached(p, 0), toSelf(p, 0);
  std::vector<uint8_t> started(p, 0);
  std::vector<ReceivedBlock> received, sent;
  bool sameData = true;
  uint64_t n = 0;
  for (uint32_t i : round) {
    const Message &m = t.messages[i];
    const int from = rankIn(g, m.src), to = rankIn(g, m.dst);
    // Empty messages are barriers' business; unhashed ones prove nothing.
    if (from < 0 || to < 0 || !m.hashed || m.bytes == 0) return out;
    if (n == 0) n = m.bytes;
    if (m.bytes != n) return out;
    const size_t s = size_t(from);
    if (!started[s]) started[s] = 1, crc[s] = m.crc;
    if (m.src == m.dst) {
      toSelf[s]++; // code that loops over every rank, itself included
      continue;
    }
    sameData = sameData && m.crc == crc[s];
    reached[s]++;
    received.push_back({m.dst, m.src, m.recvAddress});
    sent.push_back({m.src, m.dst, m.sendAddress}); // "held" by the sender, for the receiver
  }
  // A round has at most one message per ordered pair, so p - 1 messages
  // to others means every other member.
  for (size_t s = 0; s < p; s++)
    if (reached[s] + 1 != p || toSelf[s] > 1) return out;
  // The blocks must stay apart at every receiver: received one after the
  // other into one place, they are consumed on arrival (a linear
  // allreduce looks the same on the wire) and the reductions decide.
  // Distinct blocks for each receiver, each received into one scratch
  // place, are an alltoall whose receivers use each block before the next
  // (a phase loop that unpacks, or accumulates: a reduce_scatter's shape
  // too); the trace shows no layout, so it stays open (recvScratch).
  const bool scratch = !sameData && oneAddressPerReceiver(received);
  out.recv = receiveLayout(g, std::move(received), n);
  if (out.recv == ReceiveLayout::NotObserved && !scratch) return out;
  out.recvScratch = out.recv == ReceiveLayout::NotObserved;
  out.sameData = sameData;
  if (!sameData) {
    // An alltoall sends a different block to each member: from a place of
    // its own for each (blocks sent from one scratch buffer are built on
    // the fly, which the rewriter cannot hand to MPI either).
    out.send = receiveLayout(g, std::move(sent), n);
  }
  out.found = true;
  return out;
}

std::string alltoallLayoutNote(ReceiveLayout send, ReceiveLayout recv) {
  auto side = [](ReceiveLayout l) -> std::string {
    switch (l) {
    case ReceiveLayout::RankOrder: return "in rank order";
    case ReceiveLayout::Rotated: return "in distance order";
    case ReceiveLayout::Permuted: return "in an order of the program's own";
    default: return "built in one place, one block at a time";
    }
  };
  return "every member sent each other member a block of its own: the blocks are sent " + side(send) +
         " and received " + side(recv) +
         "; MPI_Alltoall keeps both in rank order (member p's block p blocks from the start)";
}

} // namespace cz::detect::detail
