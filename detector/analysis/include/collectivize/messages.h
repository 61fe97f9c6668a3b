// messages.h: a trace as matched messages. Every receive is paired with
// its send the way MPI pairs them: per (communicator, sender, receiver,
// tag), in the order the sends and the receives were posted (a
// nonblocking receive is posted at its MpiIrecvRequest, not where it
// completes). Wildcards were resolved by the tracer at completion.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "collectivize/block_crcs.h"
#include "collectivize/trace_reader.h"

namespace cz::detect {

constexpr uint32_t kNone = 0xffffffffu;

// The fields every analysis reads come first (the first 64 bytes: the
// replays visit messages in time order, all over the table, and a message
// whose hot fields span fewer cache lines costs fewer misses); no padding.
struct Message {
  uint32_t src = 0, dst = 0;     // world ranks
  uint32_t comm = 0;             // OTF2 comm ref
  uint32_t tag = 0;
  uint64_t bytes = 0;
  // Positions in the ranks' event sequences: where the send was posted at
  // src, where the receive completed at dst (data known there from then on).
  uint32_t sendPos = 0, recvPos = 0;
  uint64_t sendTime = 0, recvTime = 0;
  uint32_t crc = 0;              // the sender's CRC-32 of the payload
  bool hashed = false;           // the send carried a CRC
  uint8_t sendSiteKind = 0, recvSiteKind = 0; // 0 instrumenter id, 1 return address, 2 via caller
  // The receive was posted with MPI_ANY_SOURCE (the trace's
  // collectivize::any_source): the order of arrival chose this sender.
  bool recvAnySource = false;
  uint64_t sendAddress = 0, recvAddress = 0;
  uint64_t prefix = 0;
  uint32_t sendCount = 0, sendType = 0, recvCount = 0, recvType = 0;
  uint64_t sendSite = 0, recvSite = 0;
  // A site in the program's own wrapper of the call: the wrapper's return
  // address in the sender's / receiver's process (0: none). Symbolization
  // turns (site, caller) into one site of kind 2 (symbolize.h).
  uint64_t sendCaller = 0, recvCaller = 0;
};
static_assert(sizeof(Message) == 128, "Message: keep it at two cache lines");

// Data a process declared it keeps (cz_send_to_self).
struct KeptBuffer {
  uint32_t rank = 0;
  uint64_t bytes = 0;
  uint32_t crc = 0;
  uint64_t address = 0;
  uint64_t site = 0;
  uint8_t siteKind = 0;
  uint32_t pos = 0;
  uint64_t time = 0; // when it was declared (which window holds it)
};

// A communicator as the trace defines it.
// A communicator's creation as one member recorded it (the Leave of
// MPI_Comm_split & co.): the call's site and, for a split, the color.
struct CommCreation {
  uint32_t comm = 0, rank = 0; // the new communicator, the recording world rank
  uint64_t site = 0;
  uint8_t siteKind = 1; // 0 instrumenter id, 1 return address
  bool hasColor = false;
  int32_t color = 0;
};

struct Group {
  uint32_t comm = 0;
  std::string name;
  // Where it was made (when createdKnown): the lowest recording member's
  // record; colorAgreed when every member that recorded it passed that color.
  CommCreation created;
  bool createdKnown = false, colorAgreed = false;
  std::vector<uint32_t> members; // world ranks in communicator rank order
  // Communicator rank of each world rank (-1: not a member), when built
  // (indexMembers; the analyses ask it for every message).
  std::vector<int32_t> rankOfWorld;
  void indexMembers();
};

struct MatchStats {
  uint64_t events = 0;
  uint64_t sends = 0, receives = 0, matched = 0;
  uint64_t unmatchedSends = 0, unmatchedReceives = 0;
  uint64_t unhashedSends = 0;
  // Calls of MPI collectives ("MPI_Bcast"), summed over ranks: what a
  // program that uses real collectives shows instead of manual messages.
  std::map<std::string, uint64_t> collectives;
};

struct MessageTable {
  int ranks = 0;
  std::vector<Message> messages; // ordered by (src, sendPos)
  std::vector<KeptBuffer> kept;
  std::vector<Group> groups;     // every communicator the trace defines
  MatchStats stats;
  std::vector<std::string> warnings; // what was skipped, for the report
  BlockCrcs blocks;                  // opt-in per-block CRCs (readBlockCrcs)
  // The group of a communicator (nullptr: none). The analyses ask it for
  // every message: with many communicators (one per iteration) a scan of
  // the groups each time was quadratic; indexGroups() sorts them by
  // communicator once they are all in, after which group() searches that
  // index (a hit is checked against `groups`; any miss still scans them).
  const Group *group(uint32_t comm) const;
  void indexGroups();
  std::vector<std::pair<uint32_t, uint32_t>> groupsByComm; // (comm, first position in groups)
};

// A receive as one rank recorded it, before matching.
struct PostedReceive {
  uint32_t comm = 0, src = 0, dst = 0, tag = 0; // src, dst: world ranks
  uint32_t post = 0, pos = 0; // where it was posted / completed in dst's events
  uint64_t time = 0, address = 0, site = 0;
  uint32_t count = 0, type = 0;
  uint8_t siteKind = 0;
  bool anySource = false; // Message::recvAnySource
  uint64_t caller = 0; // Message::recvCaller
};

// What matching needs from one rank's events: its sends (the send side of
// a Message), its receives, its kept buffers and counts. Decoding ranks is
// independent, rank by rank (the parallel mode does it in several
// processes); matching then needs them all.
struct RankRecords {
  int rank = 0;
  std::vector<Message> sends;
  std::vector<PostedReceive> receives;
  std::vector<KeptBuffer> kept;
  std::vector<CommCreation> created;
  uint64_t events = 0, sendCalls = 0, receiveCalls = 0, unhashedSends = 0, noPeer = 0;
  std::map<std::string, uint64_t> collectives;
  std::string error; // the rank could not be read (its records are what came before)
};
RankRecords decodeRank(const trace::Trace &trace, int rank);

// Matches the records of every rank (in rank order, one per rank of the
// trace) into a table; groups come from the trace's definitions.
MessageTable matchRecords(const trace::Trace &trace, std::vector<RankRecords> ranks);

// Matching in pieces, for the parallel mode (each process matches the
// receives of its own ranks against the sends routed to it):
//
// Pairs receives with sends per (communicator, sender, receiver, tag) in
// posting order, as matchRecords does. Every queue must be whole (all its
// sends and receives given); the sends of a queue in posting order and its
// receives in completion order, queues interleaved in any way. Fills the
// receive side into the matched sends and sets matched[i] for them.
struct QueueCounts {
  uint64_t unmatchedSends = 0, unmatchedReceives = 0;
};
QueueCounts matchQueues(int ranks, std::vector<Message> &sends,
                        const std::vector<PostedReceive> &receives, std::vector<uint8_t> &matched);

// The table from what matching found: every rank's records without their
// sends and receives (in rank order, one per rank: counts, kept buffers,
// errors), the matched messages in (sender, send position) order and the
// unmatched counts. The same table as matchRecords on the whole records.
MessageTable assembleTable(const trace::Trace &trace, std::vector<RankRecords> summaries,
                           std::vector<Message> matched, QueueCounts unmatched);

// Reads every rank of the trace and matches. Ranks that cannot be read are
// skipped with a warning (their messages then stay unmatched).
// progress (optional) is called after each rank with (ranks read, ranks).
trace::Result<MessageTable> matchMessages(const trace::Trace &trace,
                                          void (*progress)(int done, int total) = nullptr);

} // namespace cz::detect
