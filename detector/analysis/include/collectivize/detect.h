// detect.h: finding manual collectives in a matched trace by what the
// messages carried (detector/README.md has the method).
//
//   spreading   an item (CRC, bytes) that one process has without having
//               received it and that reaches every other member of a group
//               along time-respecting message chains: bcast (whatever the
//               tree, chain or pipeline); every member the root of such an
//               item at the same call sites: allgather.
//   tiling      a process sends distinct blocks to every other member from
//               one buffer, block q at base + q*n (scatter), or receives
//               them into one (gather); every member doing both: alltoall.
//
// Groups are communicators; an item that reaches only a part of one is a
// subset collective when the parts of several instances partition the
// communicator (a row of a process grid: reported with the MPI_Comm_split
// that makes the rows), else a partial match with its coverage.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect {

namespace detail {
struct Provenance;
}

enum class Kind {
#define COLLECTIVE_KIND(Enum, name, call, rooted, counts, reduction, exchange, args) Enum,
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
};
const char *kindName(Kind k); // "bcast", as the report writes it
const char *mpiCallOf(Kind k); // "MPI_Bcast"
// mpiCallOf's arguments with placeholders ("buf, COUNT, TYPE, ROOT, COMM":
// collective_kinds.def, args), from which the report's "equivalent" is made.
const char *mpiArgumentsOf(Kind k);
// Every member's data goes to every other member (collective_kinds.def,
// exchange): alltoall, allgather and their v forms.
bool isExchange(Kind k);

// The detection rules in the order they run (the registry in
// detector/analysis/src/rules.cpp), as `detect --list-rules` prints them.
struct RuleDescription {
  std::string name;
  std::vector<Kind> finds;
  std::string proves, order;
};
std::vector<RuleDescription> detectionRuleList();
// The list as text: one paragraph per rule.
std::string detectionRuleText();

// What a match's post-conditions rest on that the trace does not prove.
// A match with any of these is "ambiguous", never "confirmed"; the report
// names each (unprovenName) and says what would settle it.
enum Unproven : uint32_t {
  kPayloadFill = 1u << 0,   // the data is a constant fill: equal CRCs prove no path
  kValuesRead = 1u << 1,    // a barrier whose messages carry values the program may read
  kReductionOp = 1u << 2,   // a reduction's shape, with no value that pins an operation
  kRootBlock = 1u << 3,     // the root's own block (its slot in the buffer) never observed
  kNeighbourhood = 1u << 4, // every rank reached only because few ranks ran
  kCombined = 1u << 5,      // blocks received into one place: combined (allreduce) or copied out
  kRunsDisagree = 1u << 6,  // another run (other process count, input) shows no such collective
  kSmallValue = 1u << 7,    // a value of a few bytes passed on from another buffer: equal by chance?
  kTwoRanks = 1u << 8,      // a group of two: any exchange between them has a collective's shape
  kScatteredFirst = 1u << 9, // an allgather whose blocks may have been scattered just before
  kRelayCopied = 1u << 10,   // the same data left relays from other buffers than it arrived in
  kStagedCopy = 1u << 11,    // the layout comes from a staging copy in the source, not the trace
  kScratchReceive = 1u << 12, // a gather received into one place: no layout in the trace
  kBufferPerPeer = 1u << 13,  // a buffer of its own per member (buf[q]): no one buffer's layout
  kArrivalOrder = 1u << 14,   // blocks placed in the order they arrived (MPI_ANY_SOURCE)
  kRedundant = 1u << 15,      // many times the messages any algorithm of the kind needs
  kInterleaved = 1u << 16,    // the instances interleave at a rank: one loop serving them in turn
  kFinalCombine = 1u << 17,   // an allreduce's last partial values arrive through a call of their own
  kPerPeerValue = 1u << 18,   // the same value sent to all from a variable the loop sets per destination
};
constexpr uint32_t kUnprovenBits = 19;
// Two instances of one code (or members of one family): what one proves
// holds for both, so most bits must be missing in both to stay; but data
// that may have been scattered just before stays in doubt if it was so in
// any instance (a long broadcast's roll: every root but the spread's),
// and blocks one instance placed in arrival order (its receives from
// MPI_ANY_SOURCE are the code's, whichever order the others met).
constexpr uint32_t combineUnproven(uint32_t a, uint32_t b) {
  return (a & b) | ((a | b) & (kScatteredFirst | kArrivalOrder));
}
const char *unprovenName(uint32_t bit);      // "payload_fill", ...
const char *unprovenSettle(uint32_t bit);    // what would settle it, for people

struct SiteUse {
  uint64_t id = 0;
  uint8_t siteKind = 0; // 0 instrumenter id, 1 return address, 2 a wrapper's site by caller (symbolize.h)
  bool send = true;     // a send site (else a receive site)
  bool operator<(const SiteUse &o) const;
  bool operator==(const SiteUse &o) const;
};
// into becomes the sorted union of two sorted, unique lists.
void unionSites(std::vector<SiteUse> &into, const std::vector<SiteUse> &more);

// Where one member of a broadcast-like instance got the data: the first
// receipt of it (its position in the member's events and the buffer), or,
// for the root, its first send of it.
struct Arrival {
  uint32_t rank = 0; // world rank
  uint32_t pos = 0;
  uint64_t address = 0, bytes = 0;
};

struct Match {
  Kind kind = Kind::Bcast;
  bool confirmed = true;          // post-conditions proven for every member
  uint32_t unproven = 0;          // Unproven bits: ambiguous (not confirmed) when any
  double coverage = 1.0;          // members that took part / group size
  uint32_t comm = 0;              // communicator of the messages
  std::string commName;
  // Where the communicator was made (commCreated): the creating call's site
  // and, when every member passed the same one, MPI_Comm_split's color.
  bool commCreated = false, commHasColor = false;
  SiteUse commSite;
  int32_t commColor = 0;
  std::vector<uint32_t> ranks;    // the group, world ranks in group order
  bool subset = false;            // a part of comm (see splitColors)
  std::vector<int> splitColors;   // subset: color per comm rank (-1: none)
  int root = -1;                  // rank in the group, -1 if rootless
  uint32_t rootWorld = kNone;
  std::vector<uint32_t> otherRoots; // world ranks that satisfy it as well
  // Not confirmed: other kinds the same messages fit as well, which only
  // what `unproven` names could tell apart (blocks received into one place:
  // combined, an allreduce, or consumed, an allgather).
  std::vector<Kind> otherKinds;
  // Rooted kinds whose root changes from instance to instance (a loop
  // over panels owned by different ranks): every root, world ranks,
  // ascending; root is then -1 and rootWorld kNone.
  std::vector<uint32_t> roots;
  std::vector<Arrival> arrivals;    // spreads: the earliest instance's, by rank
  uint32_t itemCrc = 0;             // spreads: the CRC of the data (first instance)
  // No evidence of its own (a constant fill forwarded from other buffers
  // than it arrived in): reported only as part of a root family.
  bool supportOnly = false;
  // Bcast: in some instance the root had just received, from a member,
  // data no collective explains (a piece of a long broadcast's roll?).
  // Root families that make such bcasts an allgather leave it ambiguous.
  bool fedRoot = false;
  // Bcast whose every message went from its root (no relay): at some rank
  // its instances overlap those of the bcasts from other roots at the same
  // call sites (the aggregation checks them together). A root family that
  // would read them as one broadcast after another is unproven
  // (kInterleaved): one loop serving every root's data in turn.
  bool overlapsOtherRoots = false;
  // Alltoall, allgather: every member sent its block(s) to every other
  // member itself (no forwarding), which a neighbour exchange does too
  // when few ranks run (weighSiteEvidence).
  bool direct = false;
  // Gatherv, scatterv: elements of each member's block (world rank, count),
  // from the first instance; a root whose block is unseen is missing.
  struct MemberCount {
    uint32_t rank = 0, count = 0; // world rank, elements
    bool operator<(const MemberCount &o) const { return rank < o.rank; }
  };
  std::vector<MemberCount> counts;
  std::vector<SiteUse> sites;
  // Gathers and exchanges (gather, allgather, alltoall and their v forms):
  // receive sites at which one member, in one instance, took blocks from
  // more than one sender into more than one place. Where such a site
  // receives from MPI_ANY_SOURCE, which block went where was decided by
  // arrival: kArrivalOrder, from the trace (Message::recvAnySource, at
  // aggregation) or from the site database's peers (weighSiteEvidence,
  // which names the receives). Sorted, unique.
  std::vector<SiteUse> receivesFromSeveral;
  uint64_t instances = 0;
  uint64_t messages = 0;
  uint64_t bytesPerInstance = 0;  // the collective's buffer (one member's share for *all*)
  uint64_t bytesMoved = 0;        // all messages, all instances
  double secondsInMessages = 0;   // sum over messages of receive - send time
  // Critical path: per instance, its last receive's completion minus its
  // first send's start (waiting for late members included), summed over
  // the instances timed (one object standing for several repetitions
  // has no span of its own). What an MPI collective would replace.
  double secondsCriticalPath = 0;
  uint64_t timedInstances = 0;
  uint64_t callBytes = 0;         // bytes the equivalent call's count covers (count x element)
  uint32_t datatype = 0;          // CZ_TRACE_TYPE_* of the root's (or first) send
  uint64_t count = 0;             // elements per member block, as sent
  uint64_t rootAddress = 0;       // bcast: the root's buffer (first instance)
  int segments = 1;               // bcast sent in pieces (pipelined)
  std::string op;                 // reductions: MPI_Op pinned down by the values, or ""
  bool shapeOnly = false;         // reductions without value evidence (partial)
  bool severalTags = false;       // a spread whose messages change tag on the way
  // Partial matches that a trace with per-block CRCs could confirm: the
  // block size to trace with (COLLECTIVIZE_TRACE_BLOCK_BYTES), else 0.
  uint64_t traceBlockBytes = 0;
  // Allgather whose receivers keep the blocks in another order than rank
  // order: "rotated" (rank q+d's block in slot d at q) or "permuted"; ""
  // for rank order or when the layout was not observed.
  std::string recvLayout;
  std::string sendLayout;
  std::string note;
  // Several runs (combineRuns): what each run shows at this match's call
  // sites, in run order.
  struct RunVerdict {
    std::string status; // "confirmed", "ambiguous", "partial"; "none": the
                        // sites carried messages but formed no such
                        // collective; "absent": the run never reached them
    std::string kind;   // the run's kind at these sites when it differs
    int ranks = 0;      // the run's number of ranks
  };
  std::vector<RunVerdict> runs;
};

// "confirmed"; "ambiguous": the post-conditions hold for the whole group
// but rest on something unproven (Match::unproven); "partial": they hold
// for part of it, or only the shape says so.
struct Match;
bool isAmbiguous(const Match &m);
const char *statusName(const Match &m);

// A send whose buffer the program fills by a copy from another array just
// before the call, or a receive whose buffer it empties into one just
// after (the site database's "staging", read by stagedSitesOf), at an
// offset that follows the peer: a scatter through one temporary buffer, a
// gather into one scratch buffer, whose messages show no layout. Also a
// send (receive) whose buffer is an address the peer argument chooses
// (site database "peer_indexed": `sendbuf[i]`, `&a[i * n]` to rank i,
// perPeer): blocks in separate buffers or slices that tile no buffer,
// which no one buffer's layout shows either.
struct StagedSite {
  bool send = true;
  std::string buffer; // "tmp"; "sendbuf[i]", "&a[i * n]" (perPeer)
  std::string copy;   // for notes: "scatter_staged.c:25 memcpy from all + q * BLOCK"
  bool perPeer = false;
};

struct DetectOptions {
  // Smallest group reported: with two processes every message would be a
  // "broadcast".
  int minGroup = 3;
  // Partial matches need at least this coverage.
  double minPartialCoverage = 0.5;
  // Called after each analysis phase with its name ("tiling") and the
  // seconds it took: progress output and the phase timings of the bench.
  std::function<void(const char *phase, double seconds)> onPhase;
  // Run the provenance replay on a second thread while the analyses
  // before it run (the parallel mode's process 0; the report is the same).
  bool concurrentProvenance = false;
  // The provenance of the table, replayed already (the parallel mode's
  // distributed replay): taken (moved from) instead of replaying.
  detail::Provenance *provenance = nullptr;
  // Traces of more matched messages than this are analysed in time
  // windows of about this many messages, cut where no message is in
  // flight (windows.h); 0: one window, whatever the size.
  uint64_t windowMessages = uint64_t(1) << 23;
  // Called after each window with (windows done, windows) when there are
  // several.
  std::function<void(size_t done, size_t windows)> onWindow;
  // Instrumenter site id -> its staging copy (staged_copies.cpp); empty
  // without a site database.
  std::map<uint64_t, StagedSite> stagedSites;
};

struct Report {
  std::vector<Match> matches; // confirmed first, then ambiguous, then partial
  MatchStats stats;
  std::vector<std::string> warnings;
  int ranks = 0;
  // Several runs of one program (combineRuns): each run's trace, command
  // and ranks; empty for one run.
  struct Run {
    std::string trace, command;
    int ranks = 0;
  };
  std::vector<Run> runs;
};

Report detect(const MessageTable &table, const DetectOptions &options = {});

// The same in pieces, for windows analysed apart (one process each in the
// parallel mode): what one window's instances give, per (kind,
// communicator, participants, root, call sites) in that order; findings of
// consecutive windows merged in time order; the report from the merged
// findings. A trace analysed as one window gives detect()'s report.
struct FindingKey {
  Kind kind = Kind::Bcast;
  uint32_t comm = 0;
  std::vector<uint32_t> participants; // world ranks, sorted
  uint32_t rootWorld = kNone;
  std::vector<SiteUse> sites;         // of every instance (they are the key)
  bool operator<(const FindingKey &o) const;
};
struct Finding {
  FindingKey key;
  Match match;                        // the first instance's fields, sums over all
  uint64_t nanosInMessages = 0;       // sum over messages of receive - send time
  bool severalTagInstance = false;    // an instance whose messages change tag
  bool keptConfirmed = false;         // an instance's root block declared kept
};
std::vector<Finding> findInWindow(const MessageTable &window, const DetectOptions &options);
void mergeFindings(std::vector<Finding> &into, std::vector<Finding> later);
// `table` gives the groups, counts and warnings (its messages are not
// read); windows: how many the findings come from (more than one: the
// report warns that collectives under way at a cut were seen in pieces).
Report reportFindings(std::vector<Finding> findings, const MessageTable &table,
                      const DetectOptions &options, size_t windows = 1);

} // namespace cz::detect
