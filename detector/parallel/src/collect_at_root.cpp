// collect_at_root.cpp: see collect_at_root.h. Each process sends one
// buffer (in chunks under 1 GiB: MPI counts are ints): its ranks' records
// without sends and receives (record_codec), its matched sends, its replay
// part and its unmatched counts. Process 0 puts the rows in table order
// (rank by rank from each rank's owner) and assembles.
#include "collect_at_root.h"

#include <algorithm>
#include <stdexcept>

#include "byte_io.h"
#include "collectivize/heap.h"
#include "record_codec.h"

namespace cz::detect::parallel {
namespace {

using detail::ByteReader;
using detail::put;
using detail::putAll;

constexpr int kTagSize = 81, kTagBytes = 82;
constexpr uint64_t kChunk = uint64_t(1) << 30;
constexpr uint64_t kMagic = 0x435a504152543031ull; // "CZPART01"

void sendBytes(const std::vector<char> &b, int to, MPI_Comm comm) {
  uint64_t n = b.size();
  MPI_Send(&n, 1, MPI_UINT64_T, to, kTagSize, comm);
  for (uint64_t at = 0; at < n; at += kChunk)
    MPI_Send(b.data() + at, int(std::min(kChunk, n - at)), MPI_BYTE, to, kTagBytes, comm);
}

void recvBytes(std::vector<char> &b, int from, MPI_Comm comm) {
  uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, from, kTagSize, comm, MPI_STATUS_IGNORE);
  b.resize(n);
  for (uint64_t at = 0; at < n; at += kChunk)
    MPI_Recv(b.data() + at, int(std::min(kChunk, n - at)), MPI_BYTE, from, kTagBytes, comm,
             MPI_STATUS_IGNORE);
}

struct ProcessShare {
  std::vector<RankRecords> summaries;
  std::vector<Message> sent;
  ReplayPart part;
  QueueCounts unmatched;
};

void encodeShare(DistributedMatch &m, ReplayPart &p, std::vector<char> &out) {
  put(out, kMagic);
  put(out, uint64_t(m.summaries.size()));
  std::vector<char> rec;
  for (const RankRecords &rr : m.summaries) {
    detail::encode(rr, rec);
    putAll(out, rec);
  }
  putAll(out, m.replay.sent);
  putAll(out, p.sentIndex);
  putAll(out, p.verified);
  putAll(out, p.segmentCounts);
  putAll(out, p.segments);
  putAll(out, p.origins);
  put(out, m.unmatched);
}

bool decodeShare(const std::vector<char> &in, ProcessShare &s, std::string &why) {
  ByteReader rd{in.data(), in.size()};
  if (rd.get<uint64_t>() != kMagic) {
    why = "from another version of collectivize";
    return false;
  }
  uint64_t n = rd.get<uint64_t>();
  std::vector<char> rec;
  for (uint64_t k = 0; rd.ok && k < n; k++) {
    rd.getAll(rec);
    s.summaries.emplace_back();
    if (rd.ok && !detail::decode(rec, s.summaries.back(), why)) return false;
  }
  rd.getAll(s.sent);
  rd.getAll(s.part.sentIndex);
  rd.getAll(s.part.verified);
  rd.getAll(s.part.segmentCounts);
  rd.getAll(s.part.segments);
  rd.getAll(s.part.origins);
  s.unmatched = rd.get<QueueCounts>();
  if (!rd.ok || rd.at != in.size()) {
    why = "truncated or malformed";
    return false;
  }
  return true;
}

} // namespace

std::optional<ParallelResult> collectAtRoot(MPI_Comm comm, const trace::Trace &trace,
                                            DistributedMatch match, ReplayPart part,
                                            uint64_t *bytesSent) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  if (me != 0) {
    std::vector<char> bytes;
    encodeShare(match, part, bytes);
    if (bytesSent) *bytesSent = bytes.size();
    sendBytes(bytes, 0, comm);
    return std::nullopt;
  }
  if (bytesSent) *bytesSent = 0;
  std::vector<ProcessShare> shares(static_cast<size_t>(procs));
  shares[0].summaries = std::move(match.summaries);
  shares[0].sent = std::move(match.replay.sent);
  shares[0].part = std::move(part);
  shares[0].unmatched = match.unmatched;
  std::vector<char> bytes;
  for (int p = 1; p < procs; p++) {
    recvBytes(bytes, p, comm);
    std::string why;
    if (!decodeShare(bytes, shares[size_t(p)], why))
      throw std::runtime_error("the share of process " + std::to_string(p) + " is unusable: " + why);
  }
  bytes = {};
  // Table order: rank by rank, each rank's rows from its owner.
  const int ranks = trace.rankCount();
  std::vector<std::vector<RankRecords>> byProcess;
  for (ProcessShare &s : shares) byProcess.push_back(std::move(s.summaries));
  std::vector<RankRecords> summaries = detail::inRankOrder(std::move(byProcess), ranks);
  // The table's rows on huge pages, as the serial mode's (the analyses
  // visit them all over).
  std::vector<Message> rows;
  uint64_t total = 0;
  for (uint64_t n : match.matchedPerRank) total += n;
  rows.reserve(size_t(total));
  adviseHugePages(rows);
  QueueCounts unmatched;
  std::vector<size_t> nextRow(static_cast<size_t>(procs), 0);
  for (int r = 0; r < ranks; r++) {
    ProcessShare &s = shares[size_t(r % procs)];
    size_t &at = nextRow[size_t(r % procs)];
    uint64_t n = match.matchedPerRank[size_t(r)];
    if (s.sent.size() - at < n) throw std::runtime_error("matched messages are missing");
    rows.insert(rows.end(), s.sent.begin() + ptrdiff_t(at), s.sent.begin() + ptrdiff_t(at + n));
    at += n;
  }
  std::vector<ReplayPart> parts;
  for (ProcessShare &s : shares) {
    unmatched.unmatchedSends += s.unmatched.unmatchedSends;
    unmatched.unmatchedReceives += s.unmatched.unmatchedReceives;
    s.sent = {};
    parts.push_back(std::move(s.part));
  }
  shares.clear();
  ParallelResult out;
  out.table = assembleTable(trace, std::move(summaries), std::move(rows), unmatched);
  std::string why;
  if (!assembleProvenance(out.table, std::move(parts), out.provenance, why))
    throw std::runtime_error("the replay's results do not fit: " + why);
  return out;
}

} // namespace cz::detect::parallel
