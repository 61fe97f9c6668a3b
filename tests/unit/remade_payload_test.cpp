// Equal bytes sent again from one place after other bytes were sent from
// there are made again, not held: a ping-pong client that stamps each ping
// into one buffer sends every server the ping of iteration i in turn
// (HPCC's b_eff). The spreads (spread.cpp, resentOther) start a new
// instance there, and the provenance replay a new origin (buffer_maps.cpp),
// so neither a bcast nor an allgather of the pings is read. Where the
// servers keep each client's pings apart, round i of the loop has an
// allgather's layout, but its instances interleave at every client (server
// 1 gets every stamp before server 2 gets the first): never confirmed
// (interleaved_instances.h).
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "collectivize/provenance.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz_test::Script;

constexpr uint64_t kBytes = 256, kOut = 0x1000, kIn = 0x8000;

uint32_t stamp(int client, int i) { return 0x5000 + uint32_t(client + i + 1); }

// Every rank in turn pings every other `pings` times from its one buffer
// kOut, the stamp of ping i being client + i + 1 (so every rank sends
// stamp 4 to every other when pings = ranks), received in kIn (at the
// client's slot of it with `slots`); with `answers` each server answers
// every ping into the client's kIn. With one ping and no answers, each
// client's loop is a plain linear broadcast of its one stamp.
cz::detect::MessageTable crossPingPong(const std::string &name, int ranks, int pings,
                                       bool answers, bool slots) {
  Script s(ranks);
  for (int client = 0; client < ranks; client++)
    for (int server = 0; server < ranks; server++) {
      if (server == client) continue;
      for (int i = 0; i < pings; i++) {
        uint64_t at = slots ? kIn + kBytes * uint64_t(client) : kIn;
        s.message(client, server, kBytes, stamp(client, i), kOut, at, 1);
        if (answers)
          s.message(server, client, kBytes, 0x9000 + stamp(client, i), kOut + 0x100, kIn, 2);
      }
    }
  return s.table(name);
}

TEST(RemadePayload, ProvenanceGivesTheRemadeBytesANewOrigin) {
  // Rank 0 sends X, then Y, then X again from one place; as a control,
  // rank 1 sends Z twice with nothing between.
  Script s(3);
  s.message(0, 1, kBytes, 0xa1, kOut, kIn);
  s.message(0, 1, kBytes, 0xb2, kOut, kIn + 0x400);
  s.message(0, 2, kBytes, 0xa1, kOut, kIn);
  s.message(1, 2, kBytes, 0xc3, kOut, kIn + 0x400);
  s.message(1, 0, kBytes, 0xc3, kOut, kIn + 0x800);
  auto t = s.table("remade-origin");
  auto pv = cz::detect::detail::traceProvenance(t);
  auto originOf = [&](uint32_t src, uint32_t dst, uint32_t crc) {
    for (size_t i = 0; i < t.messages.size(); i++) {
      const auto &m = t.messages[i];
      if (m.src == src && m.dst == dst && m.crc == crc) {
        EXPECT_EQ(pv.segments[i].size(), 1u);
        return pv.segments[i][0].origin;
      }
    }
    ADD_FAILURE() << "no message " << src << " -> " << dst;
    return uint32_t(-1);
  };
  EXPECT_NE(originOf(0, 1, 0xa1), originOf(0, 2, 0xa1)) << "X made again shares X's origin";
  EXPECT_EQ(originOf(1, 2, 0xc3), originOf(1, 0, 0xc3)) << "Z sent twice is one origin";
}

TEST(RemadePayload, CrossPingPongIsNoBroadcastNorAllgather) {
  for (int ranks : {4, 5}) {
    auto rep = cz::detect::detect(
        crossPingPong("ping-pong-" + std::to_string(ranks), ranks, ranks, true, false));
    for (const auto &m : rep.matches)
      EXPECT_TRUE(m.kind != Kind::Bcast && m.kind != Kind::Allgather)
          << ranks << " ranks: a " << cz::detect::kindName(m.kind) << " of " << m.messages
          << " messages";
  }
}

TEST(RemadePayload, PingsKeptApartAreAnInterleavedAllgatherAtMost) {
  for (int ranks : {4, 5}) {
    auto rep = cz::detect::detect(
        crossPingPong("ping-pong-slots-" + std::to_string(ranks), ranks, ranks, true, true));
    size_t interleaved = 0;
    for (const auto &m : rep.matches) {
      EXPECT_FALSE(m.confirmed) << ranks << " ranks: a confirmed "
                                << cz::detect::kindName(m.kind) << " of " << m.messages
                                << " messages";
      interleaved += (m.unproven & cz::detect::kInterleaved) != 0;
    }
    EXPECT_GT(interleaved, 0u) << ranks << " ranks: the rounds' allgather was not read at all";
  }
}

TEST(RemadePayload, OneStampPerClientIsStillABroadcast) {
  // The control: each client sends its one stamp to everyone from one
  // buffer, nothing else from there, kept apart by the receivers: P
  // broadcasts, one per root (or one allgather of them), confirmed.
  auto rep = cz::detect::detect(crossPingPong("one-stamp", 4, 1, false, true));
  size_t messages = 0;
  for (const auto &m : rep.matches)
    if ((m.kind == Kind::Bcast || m.kind == Kind::Allgather) && m.confirmed)
      messages += m.messages;
  EXPECT_EQ(messages, 12u);
}

} // namespace
