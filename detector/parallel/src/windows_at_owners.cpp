// windows_at_owners.cpp: see windows_at_owners.h.
#include "windows_at_owners.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "byte_io.h"
#include "collectivize/block_crcs.h"
#include "collectivize/symbolize.h"
#include "exchange.h"
#include "findings_codec.h"
#include "record_codec.h"

namespace cz::detect::parallel {
namespace {

using cz::detect::detail::Origin;
using cz::detect::detail::Segment;

// A matched message on its way to its window's owner; its segments and
// block CRCs follow in their own arrays, in the same order.
struct RoutedRow {
  Message message;
  uint64_t index = 0; // in the whole table
  uint32_t window = 0, segments = 0, blocks = 0;
  uint8_t verified = 0;
};

// An origin, answered by the process that made it (ids: k * N + p for
// process p's k-th), with the key that orders origins as the serial replay
// numbers them (its first message's send step).
struct OriginAnswer {
  Origin origin;
  ReplayKey key;
  uint32_t id = 0;
};

// Bytes from every process to process 0, in process order (MPI_Gatherv
// counts are ints: bounded per process).
std::vector<std::vector<char>> gatherBytes(MPI_Comm comm, const std::vector<char> &mine) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  if (mine.size() > size_t(INT_MAX)) throw std::runtime_error("more than 2 GiB of findings");
  int n = int(mine.size());
  std::vector<int> counts(size_t(me == 0 ? procs : 0)), displs(counts.size());
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<char> all;
  if (me == 0) {
    size_t at = 0;
    for (size_t p = 0; p < counts.size(); p++) {
      if (at > size_t(INT_MAX)) throw std::runtime_error("more than 2 GiB of findings in all");
      displs[p] = int(at), at += size_t(counts[p]);
    }
    all.resize(at);
  }
  MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              comm);
  std::vector<std::vector<char>> out;
  for (size_t p = 0; p < counts.size(); p++)
    out.emplace_back(all.begin() + displs[p], all.begin() + displs[p] + counts[p]);
  return out;
}

// Process 0's header: every rank's counts and errors (kept buffers went
// to the windows), assembled as the serial table's, without messages.
// The groups every window's table starts from, named by where they were
// made: each process's creation records go to every process (a few per
// communicator), in rank order as the serial mode reads them, and their
// return-address sites are resolved as the messages' are.
MessageTable tableOfCreations(MPI_Comm comm, const trace::Trace &trace,
                              const std::string &traceDir,
                              const std::vector<RankRecords> &summaries, SiteLocations &where) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  std::vector<CommCreation> mine, toAll;
  for (const RankRecords &rr : summaries) mine.insert(mine.end(), rr.created.begin(), rr.created.end());
  for (int q = 0; q < procs; q++) toAll.insert(toAll.end(), mine.begin(), mine.end());
  std::vector<RankRecords> all(1);
  all[0].created = exchangeCounted(comm, toAll, std::vector<size_t>(size_t(procs), mine.size()));
  std::stable_sort(all[0].created.begin(), all[0].created.end(),
                   [](const CommCreation &a, const CommCreation &b) { return a.rank < b.rank; });
  MessageTable t = assembleTable(trace, std::move(all), {}, {});
  symbolizeReturnAddresses(traceDir, t, where); // its problems are the messages' ones
  return t;
}

MessageTable headerAtRoot(MPI_Comm comm, const trace::Trace &trace,
                          std::vector<RankRecords> &summaries, QueueCounts unmatched,
                          uint64_t matched) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  std::vector<char> mine, rec;
  parallel::detail::put(mine, uint64_t(summaries.size()));
  for (RankRecords &rr : summaries) {
    rr.kept = {};
    parallel::detail::encode(rr, rec);
    parallel::detail::putAll(mine, rec);
  }
  unsigned long long counts[2] = {unmatched.unmatchedSends, unmatched.unmatchedReceives}, sum[2];
  MPI_Reduce(counts, sum, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
  std::vector<std::vector<char>> parts = gatherBytes(comm, mine);
  if (me != 0) return {};
  std::vector<std::vector<RankRecords>> byProcess(static_cast<size_t>(procs));
  for (size_t p = 0; p < parts.size(); p++) {
    parallel::detail::ByteReader rd{parts[p].data(), parts[p].size()};
    const uint64_t n = rd.get<uint64_t>();
    for (uint64_t k = 0; rd.ok && k < n; k++) {
      rd.getAll(rec);
      std::string why;
      if (!rd.ok || !parallel::detail::decode(rec, byProcess[p].emplace_back(), why))
        throw std::runtime_error("the counts of process " + std::to_string(p) +
                                 " are unusable: " + (why.empty() ? "truncated" : why));
    }
  }
  MessageTable header = assembleTable(
      trace, parallel::detail::inRankOrder(std::move(byProcess), trace.rankCount()), {},
      {sum[0], sum[1]});
  header.stats.matched = matched;
  return header;
}

// This process's matched sends with what goes along with them.
struct Sends {
  const MessageTable &table;          // the messages, their block CRCs
  const ReplayPart &part;             // segments and verdicts, in the same order
  const std::vector<uint32_t> &index; // each one's place in the whole table
  std::vector<uint64_t> segmentAt;    // where each one's segments start in part.segments
};

// One round's messages, segments and block CRCs, grouped by destination.
struct Outbox {
  std::vector<RoutedRow> rows;
  std::vector<Segment> segments;
  std::vector<uint32_t> crcs;
  std::vector<size_t> rowsTo, segmentsTo, crcsTo;
  uint64_t bytesToOthers(int me) const {
    uint64_t b = 0;
    for (size_t q = 0; q < rowsTo.size(); q++)
      if (int(q) != me)
        b += rowsTo[q] * sizeof(RoutedRow) + segmentsTo[q] * sizeof(Segment) + crcsTo[q] * 4;
    return b;
  }
};

Outbox pack(const Sends &s, const uint32_t *first, const uint32_t *last,
            const std::vector<uint32_t> &windowOf, size_t procs) {
  Outbox box;
  box.rowsTo.assign(procs, 0), box.segmentsTo.assign(procs, 0), box.crcsTo.assign(procs, 0);
  const BlockCrcs &blocks = s.table.blocks;
  for (const uint32_t *j = first; j < last; j++) {
    const size_t q = windowOf[*j] % procs;
    box.rowsTo[q]++;
    box.segmentsTo[q] += s.part.segmentCounts[*j];
    if (blocks.has(*j)) box.crcsTo[q] += blocks.count[*j];
  }
  std::vector<size_t> rowAt(procs, 0), segAt(procs, 0), crcAt(procs, 0);
  for (size_t q = 1; q < procs; q++) {
    rowAt[q] = rowAt[q - 1] + box.rowsTo[q - 1];
    segAt[q] = segAt[q - 1] + box.segmentsTo[q - 1];
    crcAt[q] = crcAt[q - 1] + box.crcsTo[q - 1];
  }
  box.rows.resize(size_t(last - first));
  box.segments.resize(procs ? segAt[procs - 1] + box.segmentsTo[procs - 1] : 0);
  box.crcs.resize(procs ? crcAt[procs - 1] + box.crcsTo[procs - 1] : 0);
  for (const uint32_t *p = first; p < last; p++) {
    const uint32_t j = *p;
    const size_t q = windowOf[j] % procs;
    RoutedRow &r = box.rows[rowAt[q]++];
    r.message = s.table.messages[j];
    r.index = s.index[j];
    r.window = windowOf[j];
    r.segments = s.part.segmentCounts[j];
    r.verified = s.part.verified[j];
    const auto from = s.part.segments.begin() + long(s.segmentAt[j]);
    std::copy(from, from + r.segments, box.segments.begin() + long(segAt[q]));
    segAt[q] += r.segments;
    if (blocks.has(j)) {
      r.blocks = blocks.count[j];
      const auto crc = blocks.crcs.begin() + long(blocks.first[j]);
      std::copy(crc, crc + r.blocks, box.crcs.begin() + long(crcAt[q]));
      crcAt[q] += r.blocks;
    }
  }
  return box;
}

// The origins that `segments` name, asked from the processes that made
// them (origin id k * N + p: process p's k-th), sorted by id.
std::vector<OriginAnswer> fetchOrigins(MPI_Comm comm, const std::vector<Segment> &segments,
                                       const std::vector<Origin> &made,
                                       const std::vector<ReplayKey> &keys, uint64_t *sent) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  const size_t P = size_t(procs);
  std::vector<uint32_t> wanted;
  wanted.reserve(segments.size());
  for (const Segment &s : segments) wanted.push_back(s.origin);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<size_t> askTo(P, 0);
  for (uint32_t id : wanted) askTo[id % P]++;
  std::vector<uint32_t> asking(wanted.size());
  {
    std::vector<size_t> at(P, 0);
    for (size_t q = 1; q < P; q++) at[q] = at[q - 1] + askTo[q - 1];
    for (uint32_t id : wanted) asking[at[id % P]++] = id;
  }
  const std::vector<size_t> askedOf = arrivingCounts(comm, askTo);
  const std::vector<uint32_t> asked = exchange(comm, asking, Layout(askTo), Layout(askedOf));
  std::vector<OriginAnswer> answers(asked.size());
  for (size_t k = 0; k < asked.size(); k++) {
    const size_t local = asked[k] / P;
    if (asked[k] % P != size_t(me) || local >= made.size())
      throw std::runtime_error("a segment names an origin no process made");
    answers[k] = {made[local], keys[local], asked[k]};
  }
  for (size_t q = 0; q < P; q++)
    if (int(q) != me) *sent += askedOf[q] * sizeof(OriginAnswer);
  std::vector<OriginAnswer> origins = exchange(comm, answers, Layout(askedOf), Layout(askTo));
  std::sort(origins.begin(), origins.end(),
            [](const OriginAnswer &a, const OriginAnswer &b) { return a.id < b.id; });
  return origins;
}

std::vector<KeptBuffer> sortedKept(std::vector<KeptBuffer> kept) {
  std::sort(kept.begin(), kept.end(), [](const KeptBuffer &a, const KeptBuffer &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.pos < b.pos;
  });
  return kept;
}

// Window w from its routed messages, as windowOf(table, provenance, plan,
// w) makes it in the serial mode: messages in table order, origins in
// the serial replay's order.
WindowTable buildWindow(const MessageTable &base, size_t window, const WindowPlan &plan,
                        const std::vector<RoutedRow> &rows, const std::vector<Segment> &segments,
                        const std::vector<uint32_t> &crcs,
                        const std::vector<OriginAnswer> &origins,
                        const std::vector<KeptBuffer> &kept, uint64_t blockBytes) {
  std::vector<uint64_t> segmentFrom(rows.size() + 1, 0), crcFrom(rows.size() + 1, 0);
  for (size_t k = 0; k < rows.size(); k++) {
    if (rows[k].window != window) throw std::runtime_error("a message came to the wrong process");
    segmentFrom[k + 1] = segmentFrom[k] + rows[k].segments;
    crcFrom[k + 1] = crcFrom[k] + rows[k].blocks;
  }
  if (segmentFrom.back() != segments.size() || crcFrom.back() != crcs.size())
    throw std::runtime_error("routed messages and their segments do not fit");
  std::vector<size_t> order(rows.size());
  for (size_t k = 0; k < order.size(); k++) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return rows[a].index < rows[b].index; });
  WindowParts parts;
  for (size_t k : order) {
    const RoutedRow &r = rows[k];
    parts.messages.push_back(r.message);
    parts.tableIndex.push_back(r.index);
    parts.segmentCounts.push_back(r.segments);
    parts.segments.insert(parts.segments.end(), segments.begin() + long(segmentFrom[k]),
                          segments.begin() + long(segmentFrom[k + 1]));
    parts.verified.push_back(r.verified);
    if (!blockBytes) continue;
    parts.blockCounts.push_back(r.blocks);
    parts.crcs.insert(parts.crcs.end(), crcs.begin() + long(crcFrom[k]),
                      crcs.begin() + long(crcFrom[k + 1]));
  }
  for (const KeptBuffer &kb : kept)
    if (plan.windowOf(kb.time) == window) parts.kept.push_back(kb);
  // `origins` (sorted by id) holds those the segments name: in serial order.
  std::vector<const OriginAnswer *> inOrder;
  for (const OriginAnswer &o : origins) inOrder.push_back(&o);
  std::sort(inOrder.begin(), inOrder.end(),
            [](const OriginAnswer *a, const OriginAnswer *b) { return a->key < b->key; });
  std::vector<std::pair<uint32_t, Origin>> numbered;
  for (const OriginAnswer *o : inOrder) numbered.push_back({o->id, o->origin});
  return assembleWindow(base, std::move(parts), numbered, blockBytes);
}

} // namespace

WindowPlan planWindowsTogether(MPI_Comm comm, const std::vector<Message> &rows,
                               uint64_t windowMessages) {
  unsigned long long n = rows.size(), total = 0;
  MPI_Allreduce(&n, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  if (windowMessages == 0 || total <= windowMessages) {
    return WindowPlan{};
  }
  unsigned long long first = ULLONG_MAX, last = 0;
  for (const Message &m : rows) {
    first = std::min<unsigned long long>(first, m.sendTime);
    last = std::max<unsigned long long>(last, std::max(m.recvTime, m.sendTime));
  }
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &last, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  TimeProfile p = emptyProfile(first, last, total);
  for (const Message &m : rows) p.add(m);
  MPI_Allreduce(MPI_IN_PLACE, p.inFlight.data(), int(p.inFlight.size()), MPI_INT64_T, MPI_SUM,
                comm);
  MPI_Allreduce(MPI_IN_PLACE, p.sends.data(), int(p.sends.size()), MPI_UINT64_T, MPI_SUM, comm);
  return planWindows(std::move(p), windowMessages);
}

std::optional<WindowedFindings> analyseWindows(MPI_Comm comm, const trace::Trace &trace,
                                               const std::string &traceDir, DistributedMatch match,
                                               ReplayPart part, const WindowPlan &plan,
                                               const DetectOptions &options, uint64_t *bytesSent) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  const size_t P = size_t(procs);
  uint64_t sent = 0;
  auto ownerOf = [&](size_t window) { return window % P; };

  // This process's sends: call sites and block CRCs, as the serial mode
  // does on the whole table before the analyses.
  MessageTable mine;
  mine.ranks = trace.rankCount();
  mine.messages = std::move(match.replay.sent);
  const std::vector<uint32_t> &index = match.replay.sentIndex; // ascending
  detail::ProcessFindings out;
  SymbolizeStats sym = symbolizeReturnAddresses(traceDir, mine, out.sites);
  out.symbolizeProblem = sym.problem;
  BlockCrcReading blocks = readBlockCrcsOfRanks(traceDir, mine, procs, me);
  for (const Message &m : mine.messages) {
    if (m.sendSiteKind == 0) out.instrumenterSites.push_back(m.sendSite);
    if (m.recvSiteKind == 0) out.instrumenterSites.push_back(m.recvSite);
  }
  std::sort(out.instrumenterSites.begin(), out.instrumenterSites.end());
  out.instrumenterSites.erase(
      std::unique(out.instrumenterSites.begin(), out.instrumenterSites.end()),
      out.instrumenterSites.end());
  if (part.sentIndex.size() != mine.messages.size() ||
      part.segmentCounts.size() != mine.messages.size() || index.size() != mine.messages.size())
    throw std::runtime_error("the replay's results do not fit the messages");

  // The origins this process made, with their serial order's key.
  std::vector<ReplayKey> originKeys(part.origins.size());
  for (size_t k = 0; k < part.origins.size(); k++) {
    auto it = std::lower_bound(index.begin(), index.end(), part.origins[k].firstMessage);
    if (it == index.end() || *it != part.origins[k].firstMessage)
      throw std::runtime_error("an origin names a message its maker does not hold");
    originKeys[k] = cz::detect::detail::sendKey(mine.messages[size_t(it - index.begin())]);
  }

  // Kept buffers to their windows' owners (few: all at once).
  std::vector<KeptBuffer> keptOut;
  std::vector<size_t> keptTo(P, 0);
  for (const RankRecords &rr : match.summaries)
    for (const KeptBuffer &kb : rr.kept) keptTo[ownerOf(plan.windowOf(kb.time))]++;
  {
    std::vector<size_t> at(P, 0);
    for (size_t q = 1; q < P; q++) at[q] = at[q - 1] + keptTo[q - 1];
    keptOut.resize(P ? at[P - 1] + keptTo[P - 1] : 0);
    for (const RankRecords &rr : match.summaries)
      for (const KeptBuffer &kb : rr.kept) keptOut[at[ownerOf(plan.windowOf(kb.time))]++] = kb;
  }
  const std::vector<KeptBuffer> kept = sortedKept(exchangeCounted(comm, keptOut, keptTo));
  keptOut = {};

  // The messages in window order; round r sends windows r*N .. r*N+N-1,
  // one to each process, which analyses it before the next round comes
  // (so a process holds its own messages and one window at a time).
  const size_t n = mine.messages.size();
  Sends sends{mine, part, index, std::vector<uint64_t>(n + 1, 0)};
  for (size_t j = 0; j < n; j++) sends.segmentAt[j + 1] = sends.segmentAt[j] + part.segmentCounts[j];
  std::vector<uint32_t> windowOfSend(n);
  for (size_t j = 0; j < n; j++) windowOfSend[j] = uint32_t(plan.windowOf(mine.messages[j].sendTime));
  std::vector<uint32_t> byWindow(n);
  for (size_t j = 0; j < n; j++) byWindow[j] = uint32_t(j);
  std::stable_sort(byWindow.begin(), byWindow.end(),
                   [&](uint32_t a, uint32_t b) { return windowOfSend[a] < windowOfSend[b]; });
  const MessageTable base = tableOfCreations(comm, trace, traceDir, match.summaries, out.sites);
  DetectOptions quiet = options;
  quiet.onPhase = nullptr;
  quiet.onWindow = nullptr;
  quiet.concurrentProvenance = false;
  const size_t windows = plan.windows(), rounds = (windows + P - 1) / P;
  size_t at = 0;
  for (size_t round = 0; round < rounds; round++) {
    size_t end = at;
    while (end < n && windowOfSend[byWindow[end]] / P == round) end++;
    Outbox box = pack(sends, byWindow.data() + at, byWindow.data() + end, windowOfSend, P);
    at = end;
    sent += box.bytesToOthers(me);
    std::vector<RoutedRow> rows = exchangeCounted(comm, box.rows, box.rowsTo);
    std::vector<Segment> segments = exchangeCounted(comm, box.segments, box.segmentsTo);
    std::vector<uint32_t> crcs = exchangeCounted(comm, box.crcs, box.crcsTo);
    box = {};
    std::vector<OriginAnswer> origins = fetchOrigins(comm, segments, part.origins, originKeys, &sent);
    const size_t window = round * P + size_t(me);
    if (window < windows) {
      WindowTable built = buildWindow(base, window, plan, rows, segments, crcs, origins, kept,
                                      mine.blocks.blockBytes);
      DetectOptions wo = quiet;
      wo.provenance = &built.provenance;
      std::vector<Finding> found = findInWindow(built.table, wo);
      out.windows.emplace_back(window, std::move(found));
    }
    // (process 0's own windows: the others' go at the same pace)
    if (me == 0 && options.onWindow) options.onWindow(std::min(windows, round * P + P), windows);
  }
  mine = {};

  // Everything to process 0.
  unsigned long long dropped = blocks.dropped, droppedAll = 0;
  MPI_Reduce(&dropped, &droppedAll, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
  unsigned long long total = 0;
  for (uint64_t k : match.matchedPerRank) total += k;
  MessageTable header =
      headerAtRoot(comm, trace, match.summaries, match.unmatched, total);
  std::vector<char> bytes;
  detail::encode(out, bytes);
  if (me != 0) sent += bytes.size();
  if (bytesSent) *bytesSent = sent;
  std::vector<std::vector<char>> all = gatherBytes(comm, bytes);
  if (me != 0) return std::nullopt;
  WindowedFindings result;
  blocks.dropped = droppedAll;
  addBlockCrcWarnings(blocks, header);
  result.header = std::move(header);
  result.windows = plan.windows();
  std::vector<std::pair<uint64_t, std::vector<Finding>>> found;
  for (size_t p = 0; p < all.size(); p++) {
    detail::ProcessFindings f;
    std::string why;
    if (!detail::decode(all[p].data(), all[p].size(), f, why))
      throw std::runtime_error("the findings of process " + std::to_string(p) +
                               " are unusable: " + why);
    for (auto &w : f.windows) found.push_back(std::move(w));
    result.sites.insert(f.sites.begin(), f.sites.end());
    if (result.symbolizeProblem.empty()) result.symbolizeProblem = f.symbolizeProblem;
    result.instrumenterSites.insert(result.instrumenterSites.end(), f.instrumenterSites.begin(),
                                    f.instrumenterSites.end());
  }
  std::sort(result.instrumenterSites.begin(), result.instrumenterSites.end());
  result.instrumenterSites.erase(
      std::unique(result.instrumenterSites.begin(), result.instrumenterSites.end()),
      result.instrumenterSites.end());
  std::sort(found.begin(), found.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &[w, findings] : found) mergeFindings(result.findings, std::move(findings));
  return result;
}

} // namespace cz::detect::parallel
