// detect_replay_test.cpp: the distributed provenance replay without MPI.
// Tables of simulated programs (buffers of real bytes, CRC-32 of what is
// sent) are replayed by N ReplayProcess objects whose records are moved
// between them in memory, a few steps at a time and in an awkward order;
// the assembled provenance must be the serial replay's, origin numbers
// included.
#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <string>

#include "collectivize/provenance.h"
#include "replay_process.h"

namespace {

using cz::detect::Message;
using cz::detect::MessageTable;
using cz::detect::detail::Provenance;
using cz::detect::parallel::ReplayInput;
using cz::detect::parallel::ReplayPart;
using cz::detect::parallel::ReplayProcess;

// Ranks with byte memories; every send is received at once, one clock for all.
struct Program {
  MessageTable t;
  std::vector<std::map<uint64_t, uint8_t>> memory;
  std::vector<uint32_t> pos;
  uint64_t clock = 1000;
  explicit Program(int ranks) : memory(size_t(ranks)), pos(size_t(ranks), 0) { t.ranks = ranks; }
  void own(uint32_t r, uint64_t addr, uint64_t n, uint8_t seed) {
    for (uint64_t k = 0; k < n; k++) memory[r][addr + k] = uint8_t(seed * 31 + k * 7 + r);
  }
  void message(uint32_t src, uint64_t from, uint64_t n, uint32_t dst, uint64_t to,
               uint64_t lateBy = 0) {
    std::string bytes;
    for (uint64_t k = 0; k < n; k++) bytes.push_back(char(memory[src][from + k]));
    for (uint64_t k = 0; k < n; k++) memory[dst][to + k] = uint8_t(bytes[k]);
    Message m;
    m.src = src, m.dst = dst, m.bytes = n, m.sendAddress = from, m.recvAddress = to;
    m.crc = uint32_t(crc32(0, reinterpret_cast<const Bytef *>(bytes.data()), uInt(n)));
    m.hashed = true;
    m.sendPos = pos[src]++, m.sendTime = clock += 10;
    m.recvPos = pos[dst]++, m.recvTime = clock += 10;
    m.recvTime -= lateBy; // a receiver's clock behind the sender's
    t.messages.push_back(m);
  }
  // The table's order: (src, sendPos).
  MessageTable table() {
    MessageTable out = t;
    std::stable_sort(out.messages.begin(), out.messages.end(), [](const Message &a, const Message &b) {
      return a.src != b.src ? a.src < b.src : a.sendPos < b.sendPos;
    });
    return out;
  }
};

// Ring allgather of 16-byte blocks on P ranks, in place (block q at 16q).
MessageTable ringAllgather(uint32_t P) {
  Program p{int(P)};
  for (uint32_t r = 0; r < P; r++) p.own(r, 16 * r, 16, 1);
  for (uint32_t step = 0; step + 1 < P; step++)
    for (uint32_t r = 0; r < P; r++) {
      uint32_t block = (r + P - step) % P;
      p.message(r, 16 * block, 16, (r + 1) % P, 16 * block);
    }
  return p.table();
}

// Binomial gather to rank 0 of 8-byte blocks (concatenations: each
// message is what its sender received plus its own block) and a
// broadcast back of the whole, one receive recorded with a clock behind.
MessageTable gatherThenBcast(uint32_t P) {
  Program p{int(P)};
  for (uint32_t r = 0; r < P; r++) p.own(r, 8 * r, 8, 2);
  for (uint32_t mask = 1; mask < P; mask <<= 1)
    for (uint32_t r = 0; r < P; r++)
      if ((r & mask) && !(r & (mask - 1)) ) {
        uint32_t n = std::min(mask, P - r);
        p.message(r, 8 * r, 8 * n, r - mask, 8 * r);
      }
  uint32_t top = 1;
  while (top < P) top <<= 1;
  for (uint32_t mask = top >> 1; mask > 0; mask >>= 1)
    for (uint32_t r = 0; r < P; r += 2 * mask)
      if (r + mask < P) p.message(r, 0, 8 * P, r + mask, 0, mask == 1 ? 15 : 0);
  // Rank 1 changes its copy and passes a piece on: new data of its own.
  p.memory[1][3] ^= 0x5a;
  p.message(1, 0, 8, 2 % P, 512);
  return p.table();
}

// The inputs of N processes, as distributed_match.cpp builds them.
std::vector<ReplayInput> split(const MessageTable &t, int procs) {
  std::vector<ReplayInput> in(static_cast<size_t>(procs));
  for (int p = 0; p < procs; p++) {
    in[size_t(p)].procs = procs, in[size_t(p)].me = p;
    for (int r = p; r < t.ranks; r += procs) in[size_t(p)].ranks.push_back(uint32_t(r));
  }
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    ReplayInput &s = in[m.src % uint32_t(procs)], &d = in[m.dst % uint32_t(procs)];
    s.sent.push_back(m);
    s.sentIndex.push_back(i);
    s.sentSlot.push_back(uint32_t(d.received.size()));
    d.received.push_back(m);
  }
  return in;
}

// Replays with records moved between the processes every `budget` steps,
// the last process first; corrupt (if set) may change records in flight.
Provenance replay(const MessageTable &t, int procs, size_t budget,
                  void (*corrupt)(std::vector<char> &) = nullptr) {
  std::vector<ReplayInput> in = split(t, procs);
  std::vector<std::unique_ptr<ReplayProcess>> rp;
  for (const ReplayInput &i : in) rp.push_back(std::make_unique<ReplayProcess>(i));
  for (int rounds = 0;; rounds++) {
    bool all = true, moved = false;
    for (int p = procs; p-- > 0;) {
      moved |= rp[size_t(p)]->run(budget) > 0;
      for (int q = 0; q < procs; q++)
        if (rp[size_t(p)]->hasRecords(q)) {
          std::vector<char> b = rp[size_t(p)]->takeRecords(q);
          if (corrupt) corrupt(b);
          EXPECT_TRUE(rp[size_t(q)]->deliver(b.data(), b.size()));
          moved = true;
        }
      all &= rp[size_t(p)]->finished();
    }
    if (all) break;
    if (!moved || rounds > 100000) {
      ADD_FAILURE() << "the replay is stuck";
      return {};
    }
  }
  std::vector<ReplayPart> parts;
  for (auto &r : rp) parts.push_back(r->result());
  Provenance out;
  std::string why;
  EXPECT_TRUE(cz::detect::parallel::assembleProvenance(t, std::move(parts), out, why)) << why;
  return out;
}

void expectSame(const Provenance &a, const Provenance &b) {
  ASSERT_EQ(a.origins.size(), b.origins.size());
  for (size_t k = 0; k < a.origins.size(); k++) {
    const auto &x = a.origins[k], &y = b.origins[k];
    EXPECT_TRUE(x.rank == y.rank && x.crc == y.crc && x.address == y.address &&
                x.bytes == y.bytes && x.firstMessage == y.firstMessage && x.crcKnown == y.crcKnown)
        << "origin " << k;
  }
  ASSERT_EQ(a.segments.spans.size(), b.segments.spans.size());
  EXPECT_EQ(a.verified, b.verified);
  for (size_t i = 0; i < a.segments.spans.size(); i++) {
    auto x = a.segments[i], y = b.segments[i];
    ASSERT_EQ(x.size(), y.size()) << "message " << i;
    for (size_t k = 0; k < x.size(); k++)
      EXPECT_TRUE(x[k].origin == y[k].origin && x[k].offset == y[k].offset &&
                  x[k].bytes == y[k].bytes)
          << "message " << i << " segment " << k;
  }
}

TEST(DistributedReplay, RingAllgatherAsSerial) {
  MessageTable t = ringAllgather(5);
  Provenance serial = cz::detect::detail::traceProvenance(t);
  ASSERT_EQ(serial.origins.size(), 5u); // each block one origin, forwarded whole
  for (int procs : {1, 2, 3, 5, 7})
    for (size_t budget : {size_t(1), size_t(3), size_t(1000)}) {
      SCOPED_TRACE("procs " + std::to_string(procs) + " budget " + std::to_string(budget));
      expectSame(replay(t, procs, budget), serial);
    }
}

TEST(DistributedReplay, ConcatenationsGapsAndLateClocksAsSerial) {
  MessageTable t = gatherThenBcast(6);
  Provenance serial = cz::detect::detail::traceProvenance(t);
  // The gather's concatenations are decomposed (CRCs add up), not new data.
  size_t verified = size_t(std::count(serial.verified.begin(), serial.verified.end(), 1));
  ASSERT_GE(verified, t.messages.size() - 1);
  for (int procs : {1, 2, 3, 4})
    for (size_t budget : {size_t(1), size_t(2), size_t(1000)}) {
      SCOPED_TRACE("procs " + std::to_string(procs) + " budget " + std::to_string(budget));
      expectSame(replay(t, procs, budget), serial);
    }
}

// Every message's send precedes its receive in the replay order, even when
// the receiver's clock says the receive completed first.
TEST(ReplayOrder, ReceiveNeverBeforeItsSend) {
  Message m;
  m.src = 3, m.dst = 1, m.sendTime = 100, m.recvTime = 90, m.sendPos = 7, m.recvPos = 2;
  EXPECT_TRUE(cz::detect::detail::sendKey(m) < cz::detect::detail::receiveKey(m));
  m.recvTime = 100; // equal times: sends first, whatever the ranks
  EXPECT_TRUE(cz::detect::detail::sendKey(m) < cz::detect::detail::receiveKey(m));
}

TEST(DistributedReplay, ReceiveWaitsForItsRecord) {
  MessageTable t = ringAllgather(4);
  std::vector<ReplayInput> in = split(t, 2);
  ReplayProcess p1(in[1]);
  // Rank 1's first step after its own send receives from rank 0 (process 0).
  p1.run(1000);
  EXPECT_FALSE(p1.finished());
  EXPECT_FALSE(p1.canRun());
  ReplayProcess p0(in[0]);
  p0.run(1000);
  ASSERT_TRUE(p0.hasRecords(1));
  std::vector<char> b = p0.takeRecords(1);
  ASSERT_TRUE(p1.deliver(b.data(), b.size()));
  EXPECT_TRUE(p1.canRun());
}

TEST(DistributedReplay, MalformedRecordsAreRefused) {
  MessageTable t = ringAllgather(4);
  std::vector<ReplayInput> in = split(t, 2);
  ReplayProcess p0(in[0]), p1(in[1]);
  p0.run(1000);
  std::vector<char> b = p0.takeRecords(1);
  ASSERT_FALSE(b.empty());
  std::vector<char> cut(b.begin(), b.end() - 1);
  EXPECT_FALSE(p1.deliver(cut.data(), cut.size()));
  std::vector<char> badSlot = b;
  badSlot[0] = char(0xff), badSlot[1] = char(0xff);
  EXPECT_FALSE(p1.deliver(badSlot.data(), badSlot.size()));
}

} // namespace
