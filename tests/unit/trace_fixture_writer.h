// trace_fixture_writer.h: writes small Collectivize trace directories with
// the OTF2 writer API directly (serial, no MPI), following
// runtime/trace/format/collectivize_trace_format.h, so the reader can be tested
// before (and independently of) the tracer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectivize/trace_reader.h"

namespace cz::trace::fixture {

struct FixtureComm {
  uint32_t ref = 0;
  std::string name;
  std::vector<uint32_t> members; // world ranks, comm rank order
  uint32_t parent = 0;
};

struct FixtureSpec {
  int ranks = 2;
  // events[r]: rank r's events, in order (Event::rank is ignored; attributes
  // are written when present; peerWorld is written as the peer_world
  // attribute when present).
  std::vector<std::vector<Event>> events;
  // Communicators besides world (ref 0) and self (ref 1).
  std::vector<FixtureComm> comms;
  // Region names; region ref = index.
  std::vector<std::string> regions;
  std::vector<bool> done;      // rank-N.done per rank (default: all)
  bool writeManifest = true;
  std::string command = "./app";
  uint64_t eventChunkSize = 1024 * 1024; // OTF2 event chunk size
  // (rank, event index) of events that also carry an attribute of another
  // tool (a double, which readers must pass over).
  std::vector<std::pair<int, size_t>> foreignAttribute;
};

// Appends n sends (rank 0 -> 1) and their receives to spec, after the
// existing events (for multi-chunk traces).
void addBulkMessages(FixtureSpec &spec, int n);

// The standard 2-rank fixture: sends/receives with attributes, an isend and
// irecv pair, a collective, a communicator split (Enter/Leave with new_comm)
// and a message on the new communicator.
FixtureSpec standardSpec();

// Writes spec into dir (which must not exist yet). Returns "" or an error.
std::string writeFixture(const std::string &dir, const FixtureSpec &spec);

} // namespace cz::trace::fixture
