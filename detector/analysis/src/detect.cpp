// detect.cpp: runs the analyses and turns instances into matches: one
// match per (kind, communicator, group, root, call sites), with the
// instance count, bytes and time; subsets of a communicator become
// confirmed only when the groups of several matches partition it.
#include "collectivize/detect.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "collectivize_trace_format.h"
#include "collectivize/collective_kinds.h"
#include "collectivize/windows.h"
#include "detect_internal.h"
#include "final_combine.h"
#include "interleaved_instances.h"
#include "rank_activity.h"
#include "root_families.h"
#include "rules.h"

namespace cz::detect {

namespace {
// Kind's enumerators follow the table's lines, so a kind is its row.
const cz::kinds::CollectiveKind &rowOf(Kind k) { return cz::kinds::kCollectiveKinds[size_t(k)]; }
} // namespace

const char *kindName(Kind k) { return rowOf(k).name; }
const char *mpiCallOf(Kind k) { return rowOf(k).mpiCall; }
const char *mpiArgumentsOf(Kind k) { return rowOf(k).args; }
bool isExchange(Kind k) { return rowOf(k).exchange; }

bool isAmbiguous(const Match &m) {
  return !m.confirmed && m.unproven && !m.shapeOnly && (!m.subset || !m.splitColors.empty());
}

const char *statusName(const Match &m) {
  return m.confirmed ? "confirmed" : isAmbiguous(m) ? "ambiguous" : "partial";
}

const char *unprovenName(uint32_t bit) {
  switch (bit) {
  case kPayloadFill: return "payload_fill";
  case kValuesRead: return "values_read";
  case kReductionOp: return "reduction_op";
  case kRootBlock: return "root_block";
  case kNeighbourhood: return "neighbourhood";
  case kCombined: return "combined";
  case kRunsDisagree: return "runs_disagree";
  case kSmallValue: return "small_value";
  case kTwoRanks: return "two_ranks";
  case kScatteredFirst: return "scattered_first";
  case kRelayCopied: return "relay_copied";
  case kStagedCopy: return "staged_copy";
  case kScratchReceive: return "scratch_receive";
  case kBufferPerPeer: return "buffer_per_peer";
  case kArrivalOrder: return "arrival_order";
  case kRedundant: return "redundant";
  case kInterleaved: return "interleaved";
  case kFinalCombine: return "final_combine";
  case kPerPeerValue: return "per_peer_value";
  }
  return "?";
}

const char *unprovenSettle(uint32_t bit) {
  switch (bit) {
  case kPayloadFill:
    return "the payloads are constant fills (every element equal), which unrelated code "
           "produces as well: trace a run whose data differs from rank to rank";
  case kValuesRead:
    return "the messages carry values: a barrier only if the program never reads them (the "
           "rewriter checks the source)";
  case kReductionOp:
    return "no observed value pins down an operation: declare each rank's contribution with "
           "cz_send_to_self, or trace with payloads whose first element differs from rank to "
           "rank";
  case kRootBlock:
    return "the root's own block never travels and its slot lies outside the blocks received: "
           "declare it with cz_send_to_self, or check in the source that the buffer holds one "
           "block per rank with the root's at its rank";
  case kNeighbourhood:
    return "every rank reached every other only because few ranks ran: trace at a larger "
           "process count";
  case kSmallValue:
    return "a value of a few bytes that each rank passed on from another buffer than it arrived "
           "in: unrelated messages carry such values by chance (flags, counts); trace a run whose "
           "values differ from rank to rank";
  case kRunsDisagree:
    return "another run of the program (another process count or input) shows no such "
           "collective at these call sites, or one whose post-conditions fail for some member: a "
           "pattern that is a collective at one process count and not at another is not a "
           "collective";
  case kRelayCopied:
    return "ranks that received the data sent the same data on from other buffers than they "
           "received it in: a relay that copies, or data each rank computed alike (a halo "
           "exchange of symmetric fields looks the same): trace a run whose data differs from "
           "rank to rank, or detect traces of other process counts together";
  case kStagedCopy:
    return "every message left from (or arrived in) one staging buffer, so the trace shows no "
           "layout: the copy that fills (empties) it says block q comes from (goes to) an offset "
           "that follows q; check in the source that the offset is q times the block, and patch "
           "by hand (MPI_Scatter from, or MPI_Gather into, the copied array, the copy removed)";
  case kBufferPerPeer:
    return "the root sent (received) every block from (into) a buffer of its own, an address "
           "the peer chooses (an element of an array of buffers, a slice of an array that the "
           "blocks do not tile), so the trace shows no one buffer's layout: "
           "MPI_Scatter (MPI_Gather) needs the blocks in one array, rank q's at q times the block; "
           "patch by hand";
  case kRedundant:
    return "the instances carried many times the messages any algorithm of this collective needs "
           "(2 P (P - 1) per instance and segment at most): the same data went to the same "
           "members again and again, as in a benchmark's measurement loop or a protocol that "
           "resends; check in the source that one transfer per member is meant";
  case kInterleaved:
    return "at a rank, the messages of two instances interleave (one instance's began before "
           "the other's ended), which consecutive calls of one collective never do: each rank "
           "finishes its part of a call before it starts the next. One loop serves the "
           "instances in turn (a ping-pong that sends each peer every iteration before the next "
           "peer gets the first, or two exchanges through one pack buffer): check in the "
           "source, and patch by hand if the data of each instance is ready before its loop";
  case kFinalCombine:
    return "in the last step every member received another rank's partial value through a receive "
           "call (site and caller) that none of the earlier steps, whose values show them combined, "
           "used: an allreduce combines them too, but code that keeps them apart (a butterfly over "
           "rows, then a swap of the row results into another buffer) sends the same; check in the "
           "source that what the last step receives is combined into the result";
  case kPerPeerValue:
    return "the value was sent from a variable the loop around the send sets anew for each "
           "destination (the site database), or beside another value the same loop sends each "
           "member that differs from member to member (the trace): equal at this process "
           "count, it may differ at another (a scatter of computed values); check in the "
           "source, or detect traces of several process counts together";
  case kArrivalOrder:
    return "a member received blocks from MPI_ANY_SOURCE into places chosen before their senders "
           "were known, so the order in which they arrived in this run put each where it is; "
           "another run may place them otherwise: receive rank q's block from rank q (the source "
           "argument), or place each by its status's MPI_SOURCE";
  case kScratchReceive:
    return "the receiver (a gather's root, every member of an alltoall) took every block into "
           "one place (a scalar, one scratch buffer) and used it before the next arrived, so the "
           "trace shows no layout: check in the source where the blocks are kept (MPI_Gather, "
           "MPI_Gatherv and MPI_Alltoall need one array with a block per rank; an alltoall's "
           "blocks combined as they arrive are a reduce_scatter), and patch by hand";
  case kScatteredFirst:
    return "each member may have received its block just before, from the group (a scatter "
           "then an allgather is one bcast): trace with per-block CRCs (collectivize run "
           "--block-bytes N, N the block size) to follow the pieces";
  case kTwoRanks:
    return "with two ranks, any message between them has the shape of a scatter, a gather or a "
           "bcast, and any swap that of an alltoall, an allgather or an allreduce (a ring of two "
           "is one exchange, as a pairwise MPI_Sendrecv is): trace at three or more ranks per "
           "group (the same call sites forming this collective on a larger group in the same "
           "trace settle it)";
  case kCombined:
    return "every block reached every rank through one receive buffer: an allreduce if the "
           "program combines them as they arrive, an allgather if it copies them out (the "
           "rewriter reads the combine step)";
  }
  return "";
}

bool SiteUse::operator<(const SiteUse &o) const {
  return std::tie(send, id, siteKind) < std::tie(o.send, o.id, o.siteKind);
}
bool SiteUse::operator==(const SiteUse &o) const {
  return id == o.id && siteKind == o.siteKind && send == o.send;
}

void unionSites(std::vector<SiteUse> &into, const std::vector<SiteUse> &more) {
  if (more.empty()) return;
  std::vector<SiteUse> both;
  both.reserve(into.size() + more.size());
  std::set_union(into.begin(), into.end(), more.begin(), more.end(), std::back_inserter(both));
  into = std::move(both);
}

namespace {

using detail::Instance;

// Where the root first sent in an instance's arrivals (UINT32_MAX: none).
uint32_t rootSendOf(const std::vector<Arrival> &arrivals, uint32_t root) {
  for (const Arrival &a : arrivals)
    if (a.rank == root) return a.pos;
  return UINT32_MAX;
}

// Every message of every instance goes from or to its root (a linear
// bcast, scatter, gather or reduce): no relay, so no pipelining that would
// let two calls' messages overlap at a rank.
bool allThroughRoot(const MessageTable &t, const std::vector<const Instance *> &instances) {
  for (const Instance *in : instances) {
    if (in->rootWorld == kNone) return false;
    for (uint32_t i : in->messages) {
      const Message &m = t.messages[i];
      if (m.src != in->rootWorld && m.dst != in->rootWorld) return false;
    }
  }
  return true;
}

// Reports each phase's duration to DetectOptions::onPhase.
class PhaseClock {
public:
  explicit PhaseClock(const DetectOptions &o) : o_(o) {}
  void done(const char *phase) {
    auto now = std::chrono::steady_clock::now();
    if (o_.onPhase) o_.onPhase(phase, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

private:
  const DetectOptions &o_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Sorted, each once (a sorted vector: a std::set per instance cost more).
std::vector<SiteUse> sitesOf(const MessageTable &t, const Instance &in) {
  std::vector<SiteUse> s;
  s.reserve(in.messages.size() * 2);
  for (uint32_t i : in.messages) {
    const Message &m = t.messages[i];
    s.push_back({m.sendSite, m.sendSiteKind, true});
    s.push_back({m.recvSite, m.recvSiteKind, false});
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// Gathers and exchanges: the receive sites at which one member, in this
// instance, took blocks from several senders into several places
// (Match::receivesFromSeveral), added to `into` (sorted, unique). A site
// whose blocks all arrive at one address (a scratch buffer the program
// empties, by status.MPI_SOURCE or otherwise) places nothing itself.
// True when the trace says one such site received from MPI_ANY_SOURCE
// (Message::recvAnySource): the blocks lie in arrival order.
bool addReceivesFromSeveral(const MessageTable &t, const Instance &in, std::vector<SiteUse> &into) {
  if (!isExchange(in.kind) && in.kind != Kind::Gather && in.kind != Kind::Gatherv) return false;
  struct Arrived {
    uint32_t dst;
    SiteUse site;
    uint32_t src;
    uint64_t address;
    bool anySource;
  };
  std::vector<Arrived> arrived;
  arrived.reserve(in.messages.size());
  for (uint32_t i : in.messages) {
    const Message &m = t.messages[i];
    arrived.push_back({m.dst, {m.recvSite, m.recvSiteKind, false}, m.src, m.recvAddress,
                       m.recvAnySource});
  }
  bool arrivalOrder = false;
  auto member = [](const Arrived &a) { return std::tie(a.dst, a.site); };
  std::sort(arrived.begin(), arrived.end(),
            [&](const Arrived &a, const Arrived &b) { return member(a) < member(b); });
  for (size_t b = 0, e; b < arrived.size(); b = e) {
    bool senders = false, places = false, anySource = arrived[b].anySource;
    for (e = b + 1; e < arrived.size() && member(arrived[e]) == member(arrived[b]); e++) {
      senders |= arrived[e].src != arrived[b].src;
      places |= arrived[e].address != arrived[b].address;
      anySource |= arrived[e].anySource;
    }
    if (!senders || !places) continue;
    arrivalOrder |= anySource;
    auto at = std::lower_bound(into.begin(), into.end(), arrived[b].site);
    if (at == into.end() || !(*at == arrived[b].site)) into.insert(at, arrived[b].site);
  }
  return arrivalOrder;
}

// Instances of one manual collective share their call sites. (Return
// addresses can differ between copies of one call when the compiler peels
// or unrolls the loop around it; such copies become separate matches,
// never a wrong merge.)
using AggKey = FindingKey;

AggKey keyOf(const MessageTable &t, const Instance &in) {
  return {in.kind, in.comm, in.participants, in.rootWorld, sitesOf(t, in)};
}

Match start(const MessageTable &t, const AggKey &k, const Instance &first) {
  Match m;
  m.kind = k.kind;
  m.comm = k.comm;
  m.rootWorld = k.rootWorld;
  m.otherRoots = first.otherRoots;
  m.arrivals = first.arrivals;
  m.itemCrc = first.itemCrc;
  m.counts = first.counts;
  m.bytesPerInstance = first.bytes;
  m.rootAddress = first.rootAddress;
  const Group *g = t.group(k.comm);
  if (g) {
    m.commName = g->name;
    m.commCreated = g->createdKnown;
    m.commSite.id = g->created.site, m.commSite.siteKind = g->created.siteKind;
    m.commHasColor = g->colorAgreed, m.commColor = g->created.color;
  }
  if (!first.messages.empty()) {
    const Message &msg = t.messages[first.messages[0]];
    m.datatype = msg.sendType;
    m.count = first.count ? first.count : msg.sendCount;
  }
  m.segments = first.segments;
  if (m.segments > 1)
    m.note = "pipelined: " + std::to_string(m.segments) +
             " pieces of one buffer, each forwarded separately";
  if (!first.note.empty()) m.note = first.note;
  m.traceBlockBytes = first.traceBlockBytes;
  m.recvLayout = first.recvLayout;
  m.sendLayout = first.sendLayout;
  m.otherKinds = first.otherKinds;
  if (first.blockBytesAsType && m.datatype == CZ_TRACE_TYPE_DERIVED) {
    m.datatype = CZ_TRACE_TYPE_BYTE; // a derived type packs several blocks: count in bytes
    m.count = first.count;
  }
  // Element size as sent (derived types too): the first message's bytes
  // per element it counted.
  for (uint32_t i : first.messages) {
    const Message &msg = t.messages[i];
    if (!msg.sendCount || msg.bytes % msg.sendCount) continue;
    uint64_t element = msg.bytes / msg.sendCount;
    if (first.blockBytesAsType && m.datatype == CZ_TRACE_TYPE_BYTE) element = 1;
    m.callBytes = m.count * element;
    break;
  }
  return m;
}

// Group of a match: the communicator's members when the participants are
// all of them, else the participants (a subset).
void setGroup(const MessageTable &t, Match &m, const std::vector<uint32_t> &participants) {
  const Group *g = t.group(m.comm);
  if (g && !g->members.empty()) {
    std::vector<uint32_t> sorted = g->members;
    std::sort(sorted.begin(), sorted.end());
    if (sorted == participants) {
      m.ranks = g->members;
      m.subset = false;
      m.coverage = 1.0;
    } else {
      m.subset = true;
      m.coverage = double(participants.size()) / double(g->members.size());
      // Group order: communicator rank order.
      for (uint32_t w : g->members)
        if (std::binary_search(participants.begin(), participants.end(), w)) m.ranks.push_back(w);
    }
  } else {
    m.ranks = participants;
    m.subset = true;
    m.coverage = 0;
  }
  m.root = -1;
  for (size_t i = 0; i < m.ranks.size(); i++)
    if (m.ranks[i] == m.rootWorld) m.root = int(i);
}

} // namespace

std::vector<Finding> findInWindow(const MessageTable &t, const DetectOptions &o) {
  std::vector<uint8_t> claimed(t.messages.size(), 0);
  std::vector<Instance> instances;
  PhaseClock clock(o);
  // The provenance replay depends on no other analysis (it follows every
  // message, claimed or not): with concurrentProvenance it runs on a
  // second thread beside tiling, barriers, reductions and spreads.
  detail::Provenance pv;
  bool provenanceMade = false; // pv holds the replay's result
  std::thread provenance;
  if (o.provenance) pv = std::move(*o.provenance);
  else if (o.concurrentProvenance)
    provenance = std::thread([&] { pv = detail::traceProvenance(t); });
  struct Joiner { // (also when an analysis throws: a joinable thread would abort)
    std::thread &thread;
    ~Joiner() {
      if (thread.joinable()) thread.join();
    }
  } joiner{provenance};
  {
    detail::RuleInputs inputs(t, o, claimed, instances, [&]() -> const detail::Provenance & {
      if (provenance.joinable()) provenance.join();
      else if (!o.provenance && !provenanceMade) pv = detail::traceProvenance(t);
      provenanceMade = true;
      return pv;
    });
    for (const detail::DetectionRule &rule : detail::detectionRules()) {
      rule.run(inputs);
      if (*rule.phase) clock.done(rule.phase);
    }
  }
  pv = {};
  detail::markUnseenFinalCombines(t, instances);

  std::map<AggKey, Finding> agg;
  std::unordered_map<Finding *, std::vector<const Instance *>> instancesOf;
  for (const Instance &in : instances) {
    AggKey k = keyOf(t, in);
    auto it = agg.find(k);
    if (it == agg.end()) {
      Finding f;
      f.match = start(t, k, in);
      it = agg.emplace(std::move(k), std::move(f)).first;
    }
    Finding &f = it->second;
    instancesOf[&f].push_back(&in);
    Match &m = f.match;
    uint32_t unproven = in.unproven;
    if (addReceivesFromSeveral(t, in, m.receivesFromSeveral)) unproven |= kArrivalOrder;
    // What one instance proves is proven for the code they share.
    m.unproven = m.instances ? combineUnproven(m.unproven, unproven) : unproven;
    m.supportOnly = m.instances ? m.supportOnly && in.supportOnly : in.supportOnly;
    m.fedRoot = m.fedRoot || in.fedRoot;
    m.direct = m.instances ? m.direct && in.direct : in.direct;
    // The earliest instance's arrivals (instances come in no time order):
    // root families compare the same iteration of each root.
    if (!in.arrivals.empty() && m.instances && rootSendOf(in.arrivals, in.rootWorld) <
                                                   rootSendOf(m.arrivals, in.rootWorld))
      m.arrivals = in.arrivals;
    m.instances += in.repeats;
    if (!in.oneTag) f.severalTagInstance = true;
    if (!in.op.empty()) m.op = in.op;
    if (in.shapeOnly) m.shapeOnly = true;
    m.messages += in.messages.size();
    if (in.keptConfirmed) f.keptConfirmed = true;
    uint64_t firstSend = UINT64_MAX, lastReceive = 0;
    for (uint32_t i : in.messages) {
      const Message &msg = t.messages[i];
      m.bytesMoved += msg.bytes;
      if (msg.recvTime > msg.sendTime) f.nanosInMessages += msg.recvTime - msg.sendTime;
      firstSend = std::min(firstSend, msg.sendTime);
      lastReceive = std::max(lastReceive, msg.recvTime);
    }
    if (in.repeats == 1 && lastReceive > firstSend) {
      m.secondsCriticalPath += double(lastReceive - firstSend) * 1e-9;
      m.timedInstances++;
    }
  }
  std::unordered_map<const Finding *, bool> throughRoot; // rooted findings: allThroughRoot
  for (auto &[f, ins] : instancesOf) {
    uint32_t rank = 0;
    // (Rooted kinds only when every message goes from or to the root: a
    // bcast's pieces pipelined through relays interleave there by design.)
    if (rowOf(f->match.kind).rooted && !(throughRoot[f] = allThroughRoot(t, ins))) continue;
    if (!detail::instancesInterleave(t, ins, rank)) continue;
    f->match.unproven |= kInterleaved;
    if (f->match.note.empty())
      f->match.note = "at world rank " + std::to_string(rank) +
                      " the messages of two instances interleave: one loop serving them in turn";
  }
  // Bcasts from different roots at the same call sites, every message
  // from its root: their instances together must not overlap at a rank
  // either, if they are one broadcast after another (root_families.cpp).
  // (Grouped as root families group them, call sites without their role,
  // but over any part of the communicator: random pairs reach parts of it
  // too, and those parts' bcasts are no evidence either.)
  using Calls = std::set<std::pair<uint64_t, uint8_t>>;
  std::map<std::pair<uint32_t, Calls>, std::vector<Finding *>> families;
  for (auto &[k, f] : agg) {
    if (k.kind != Kind::Bcast || k.rootWorld == kNone || !throughRoot[&f]) continue;
    Calls calls;
    for (const SiteUse &su : k.sites) calls.insert({su.id, su.siteKind});
    families[{k.comm, calls}].push_back(&f);
  }
  for (auto &[key, members] : families) {
    std::set<uint32_t> roots;
    for (Finding *f : members) roots.insert(instancesOf[f].front()->rootWorld);
    if (roots.size() < 2) continue;
    std::vector<const Instance *> all;
    for (Finding *f : members) all.insert(all.end(), instancesOf[f].begin(), instancesOf[f].end());
    uint32_t rank = 0;
    if (!detail::instancesInterleave(t, all, rank)) continue;
    for (Finding *f : members) f->match.overlapsOtherRoots = true;
  }
  std::vector<Finding> out;
  out.reserve(agg.size());
  while (!agg.empty()) { // each finding takes its key from the map
    auto node = agg.extract(agg.begin());
    node.mapped().key = std::move(node.key());
    out.push_back(std::move(node.mapped()));
  }
  clock.done("instances");
  return out;
}

bool FindingKey::operator<(const FindingKey &o) const {
  return std::tie(kind, comm, participants, rootWorld, sites) <
         std::tie(o.kind, o.comm, o.participants, o.rootWorld, o.sites);
}

// As if the later window's instances had followed the earlier ones' in
// one aggregation: the first instance's fields stay, counts add up.
void mergeFindings(std::vector<Finding> &into, std::vector<Finding> later) {
  std::vector<Finding> merged;
  merged.reserve(into.size() + later.size());
  auto a = into.begin(), b = later.begin();
  while (a != into.end() || b != later.end()) {
    if (b == later.end() || (a != into.end() && a->key < b->key)) {
      merged.push_back(std::move(*a++));
    } else if (a == into.end() || b->key < a->key) {
      merged.push_back(std::move(*b++));
    } else {
      Finding &f = *a;
      const Finding &g = *b;
      f.match.instances += g.match.instances;
      f.match.messages += g.match.messages;
      f.match.bytesMoved += g.match.bytesMoved;
      if (!g.match.op.empty()) f.match.op = g.match.op;
      f.match.shapeOnly = f.match.shapeOnly || g.match.shapeOnly;
      f.match.unproven = combineUnproven(f.match.unproven, g.match.unproven);
      f.match.supportOnly = f.match.supportOnly && g.match.supportOnly;
      f.match.fedRoot = f.match.fedRoot || g.match.fedRoot;
      f.match.overlapsOtherRoots = f.match.overlapsOtherRoots || g.match.overlapsOtherRoots;
      f.match.direct = f.match.direct && g.match.direct;
      unionSites(f.match.receivesFromSeveral, g.match.receivesFromSeveral);
      f.nanosInMessages += g.nanosInMessages;
      f.match.secondsCriticalPath += g.match.secondsCriticalPath;
      f.match.timedInstances += g.match.timedInstances;
      f.severalTagInstance = f.severalTagInstance || g.severalTagInstance;
      f.keptConfirmed = f.keptConfirmed || g.keptConfirmed;
      merged.push_back(std::move(f));
      ++a;
      ++b;
    }
  }
  into = std::move(merged);
}

// Matches of two ranks prove nothing on their own (any message between two
// ranks has a rooted collective's shape, any swap an alltoall's): they keep
// their status only as instances of a pattern that the same call sites form
// on a larger group of the same trace (HPL's panel broadcasts on 2-rank
// rows beside 4-rank ones); otherwise ambiguous (two_ranks). A match left
// without messages (its messages taken by other matches) is no finding.
// A swap between two ranks (each sends the other its data once) is what
// an alltoall, an allgather and an allreduce of two ranks all come to: a
// ring of two is one exchange, and so is a pairwise MPI_Sendrecv (a halo).
// The kinds a two-rank swap fits besides the one reported.
static std::vector<Kind> swapsBetweenTwo(Kind k) {
  const Kind swaps[] = {Kind::Alltoall, Kind::Allgather, Kind::Allreduce};
  if (std::find(std::begin(swaps), std::end(swaps), k) == std::end(swaps)) return {};
  std::vector<Kind> others;
  for (Kind s : swaps)
    if (s != k) others.push_back(s);
  return others;
}

static void weighSmallGroups(Report &rep) {
  size_t empty = 0;
  std::vector<Match> kept;
  kept.reserve(rep.matches.size());
  for (Match &m : rep.matches)
    if (m.messages == 0) empty++;
    else kept.push_back(std::move(m));
  rep.matches = std::move(kept);
  if (empty)
    rep.warnings.push_back(std::to_string(empty) + " candidate match" + (empty > 1 ? "es" : "") +
                           " left out: every message of " + (empty > 1 ? "them" : "it") +
                           " belongs to another match");
  // The kind these sites form on a larger group, and whether it is proven.
  std::map<SiteUse, std::pair<Kind, bool>> onLargerGroups;
  for (const Match &m : rep.matches)
    if (m.ranks.size() >= 3)
      for (const SiteUse &s : m.sites) {
        auto [it, fresh] = onLargerGroups.emplace(s, std::make_pair(m.kind, m.confirmed));
        if (!fresh && it->second.first == m.kind) it->second.second |= m.confirmed;
      }
  // Between two ranks one message from the root is a bcast's or a
  // scatter's, one swap an alltoall's or an allgather's: a two-rank
  // instance takes the kind of the larger groups' pattern.
  auto sameBetweenTwo = [](Kind a, Kind b) {
    auto fromRoot = [](Kind k) { return k == Kind::Bcast || k == Kind::Scatter; };
    auto swap = [](Kind k) { return k == Kind::Alltoall || k == Kind::Allgather; };
    return a == b || (fromRoot(a) && fromRoot(b)) || (swap(a) && swap(b));
  };
  for (Match &m : rep.matches) {
    if (m.ranks.size() != 2) continue;
    const std::pair<Kind, bool> *larger = nullptr;
    for (const SiteUse &s : m.sites) {
      auto it = onLargerGroups.find(s);
      if (it != onLargerGroups.end() && sameBetweenTwo(m.kind, it->second.first)) larger = &it->second;
    }
    if (!larger) {
      m.unproven |= kTwoRanks;
      m.confirmed = false;
      m.otherKinds = swapsBetweenTwo(m.kind);
      continue;
    }
    if (m.kind != larger->first) {
      std::string was = kindName(m.kind);
      m.kind = larger->first;
      m.unproven &= ~uint32_t(kRootBlock); // a scatter's root slot: no such thing in a bcast
      m.confirmed = larger->second && !m.unproven && !m.shapeOnly;
      m.note = std::string("on a group of two (where it looks like a ") + was +
               "), an instance of the " + kindName(m.kind) +
               " these call sites form on larger groups"; // (the old kind's note is moot)
    }
  }
}

// An exchange (allgather, alltoall and their v forms) delivers each
// member every other member's block once: no algorithm needs more than
// P (P - 1) messages per instance and segment (the direct and the ring
// ones), twice that is a generous bound. Many times that, the same data
// went to the same members again and again: a latency benchmark's rings
// (HPCC's b_eff: 20104 messages in 11 allgather instances of 4 ranks),
// not a collective one call could stand for. (Only exchanges: a rooted
// match's instances count its root's calls, and pieces of a long
// broadcast or a scatter's repeated rounds may share one.)
void markRedundant(Match &m) {
  const uint64_t p = m.ranks.size();
  if (!isExchange(m.kind) || p < 2 || m.instances == 0) return;
  const uint64_t segments = m.segments > 1 ? uint64_t(m.segments) : 1;
  if (m.messages > m.instances * 2 * p * (p - 1) * segments) m.unproven |= kRedundant;
}

Report reportFindings(std::vector<Finding> findings, const MessageTable &t,
                      const DetectOptions &o, size_t windows) {
  PhaseClock clock(o);
  Report rep;
  rep.stats = t.stats;
  rep.warnings = t.warnings;
  rep.ranks = t.ranks;
  if (windows > 1)
    rep.warnings.push_back(
        "analysed in " + std::to_string(windows) + " time windows of about " +
        std::to_string(o.windowMessages) +
        " messages (--window-messages), cut where the fewest messages were in flight: a "
        "collective under way at one of the cuts is seen in pieces there");
  std::vector<Match *> agg; // in the findings' (the key's) order
  agg.reserve(findings.size());
  for (Finding &f : findings) {
    Match &m = f.match;
    if (f.severalTagInstance && m.segments == 1) m.severalTags = true;
    if (f.keptConfirmed) m.note = "the root's own block was declared with cz_send_to_self";
    m.secondsInMessages = double(f.nanosInMessages) * 1e-9;
    setGroup(t, m, f.key.participants);
    m.sites = f.key.sites;
    agg.push_back(&m);
  }

  // Subsets: confirmed when the groups of the matches of one kind on one
  // communicator partition it (each group may have several matches).
  std::map<std::pair<Kind, uint32_t>, std::vector<Match *>> families;
  for (Match *m : agg)
    if (m->subset) families[{m->kind, m->comm}].push_back(m);
  for (auto &[fk, ms] : families) {
    const Group *g = t.group(fk.second);
    if (!g) continue;
    std::map<std::vector<uint32_t>, int> colorOf;
    for (Match *m : ms) colorOf.emplace(m->ranks, int(colorOf.size()));
    if (colorOf.size() < 2) continue;
    std::vector<int> color(g->members.size(), -1);
    bool partition = true;
    for (auto &[ranks, c] : colorOf)
      for (uint32_t w : ranks) {
        int pos = detail::rankIn(*g, w);
        if (pos < 0 || color[size_t(pos)] != -1) partition = false;
        else color[size_t(pos)] = c;
      }
    if (!partition || std::count(color.begin(), color.end(), -1) != 0) continue;
    for (Match *m : ms) {
      m->splitColors = color;
      m->coverage = 1.0;
    }
  }

  // Parts of a group that one root's broadcasts through the same call
  // sites reach in turn, overlapping (root 1's unchanging bytes to ranks 0
  // and 2, then 0 and 3, again and again: changing partners, as IMB-P2P's
  // Corandom draws them): no communicator holds two overlapping parts, so
  // neither is one collective's group.
  std::set<const Match *> overlappingParts;
  {
    std::map<std::tuple<uint32_t, uint32_t, std::vector<SiteUse>>, std::vector<const Match *>> parts;
    for (const Match *m : agg)
      if (m->subset && m->kind == Kind::Bcast) parts[{m->comm, m->rootWorld, m->sites}].push_back(m);
    for (auto &[key, ms] : parts)
      for (size_t i = 0; i < ms.size(); i++)
        for (size_t j = i + 1; j < ms.size(); j++) {
          size_t shared = 0;
          for (uint32_t r : ms[i]->ranks)
            shared += r != ms[i]->rootWorld &&
                      std::find(ms[j]->ranks.begin(), ms[j]->ranks.end(), r) != ms[j]->ranks.end();
          if (shared) overlappingParts.insert(ms[i]), overlappingParts.insert(ms[j]);
        }
  }

  std::set<Match *> merged;

  // Broadcasts whose roots differ: one exchange (allgather, or combined
  // in place), or one broadcast after another from the same code.
  std::vector<Match> rootFamilies;
  detail::mergeRootFamilies(agg, merged, rootFamilies);

  for (Match *mp : agg) {
    Match &m = *mp;
    if (merged.count(&m) || m.supportOnly) continue;
    markRedundant(m);
    if (m.unproven) m.confirmed = false;
    if (m.shapeOnly) {
      m.confirmed = false;
      if (m.note.empty())
        m.note = "only the shape says so: a gather into one scratch buffer looks the same";
      // A reduce with neither combining on the way nor values is a flat
      // star of equal-sized messages to the root: a gather's shape too
      // (blocks kept in separate buffers, or in one scratch buffer).
      if (m.kind == Kind::Reduce && m.otherKinds.empty()) m.otherKinds = {Kind::Gather};
      // An allreduce seen in its shape alone (direct messages, no value
      // pinning an operation) of a few bytes a member is also a barrier's
      // exchange of tokens, if no rank reads them (barrier.cpp takes only
      // equal tokens for one).
      if (m.kind == Kind::Allreduce && m.op.empty() && m.otherKinds.empty() &&
          m.bytesPerInstance <= 8)
        m.otherKinds = {Kind::Barrier};
    }
    if (m.subset && m.splitColors.empty()) {
      // Partial: enough of the group, and one tag (a chain that changes
      // tags on the way is more likely unrelated messages with equal data).
      // A constant fill on part of a group is no evidence at all, nor are
      // a few bytes that relays sent on from other buffers than they
      // arrived in: equal by chance (occupancy flags of a ring of cells,
      // halo_flag_cells.c; in a traffic model such a part came and went
      // with the run).
      // Nor are a part's linear bcasts that overlap other roots' at the
      // same call sites (random pairs swapping buffers reach parts of the
      // group; Match::overlapsOtherRoots), nor parts one root reaches in
      // turn that overlap each other (overlappingParts). Nor a part reached
      // through relays that sent the data on from other buffers than they
      // received it in (kRelayCopied): a sort's merge that keeps a
      // neighbour's list whole, a halo of equal strips, b_eff's rings (on
      // the real-code suite every such part was a false positive, 7 of 7).
      if (m.coverage < o.minPartialCoverage || int(m.ranks.size()) < o.minGroup ||
          m.severalTags || (m.unproven & (kPayloadFill | kSmallValue | kRelayCopied)) || m.overlapsOtherRoots ||
          overlappingParts.count(&m))
        continue;
      m.confirmed = false;
    }
    rep.matches.push_back(m);
  }
  for (Match &m : rootFamilies) {
    markRedundant(m);
    if (m.unproven) m.confirmed = false;
    rep.matches.push_back(std::move(m));
  }
  weighSmallGroups(rep);
  std::stable_sort(rep.matches.begin(), rep.matches.end(), [](const Match &a, const Match &b) {
    if (a.confirmed != b.confirmed) return a.confirmed;
    if (isAmbiguous(a) != isAmbiguous(b)) return isAmbiguous(a);
    return a.bytesMoved > b.bytesMoved;
  });
  clock.done("aggregation");
  return rep;
}

Report detect(const MessageTable &t, const DetectOptions &o) {
  const WindowPlan plan = planWindows(t, o.windowMessages);
  const size_t windows = plan.windows();
  if (windows == 1) return reportFindings(findInWindow(t, o), t, o);
  detail::Provenance pv;
  if (o.provenance) pv = std::move(*o.provenance);
  else pv = detail::traceProvenance(t);
  std::vector<Finding> all;
  for (size_t w = 0; w < windows; w++) {
    WindowTable part = windowOf(t, pv, plan, w);
    DetectOptions wo = o;
    wo.provenance = &part.provenance;
    wo.concurrentProvenance = false;
    mergeFindings(all, findInWindow(part.table, wo));
    if (o.onWindow) o.onWindow(w + 1, windows);
  }
  return reportFindings(std::move(all), t, o, windows);
}

} // namespace cz::detect
