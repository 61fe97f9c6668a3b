// parallel_match.cpp: see parallel_match.h. Every process decodes its
// ranks at once; process 0 then takes the other processes' records in
// trace rank order (each sends its ranks in ascending order, so MPI's
// non-overtaking order lines them up) and matches.
#include "collectivize/parallel_match.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "record_codec.h"

namespace cz::detect::parallel {
namespace {

constexpr int kTagSize = 1, kTagBytes = 2;
constexpr uint64_t kChunk = uint64_t(1) << 30; // MPI counts are ints

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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

} // namespace

Session::Session(int *argc, char ***argv) {
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    MPI_Init(argc, argv);
    initialized_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() {
  if (initialized_) MPI_Finalize();
}

bool Session::allOk(bool ok) const {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

bool Session::fromRoot(bool value) const {
  int v = value ? 1 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v != 0;
}

std::optional<MessageTable> matchMessages(const Session &s, const trace::Trace &trace,
                                          Timings *timings) {
  const int ranks = trace.rankCount(), procs = s.size(), me = s.rank();
  auto owner = [&](int r) { return r % procs; };
  double t0 = now();
  std::vector<RankRecords> mine;
  for (int r = me; r < ranks; r += procs) mine.push_back(decodeRank(trace, r));
  double decoded = now() - t0;

  double spans[2] = {decoded, -decoded}, extremes[2] = {0, 0};
  MPI_Reduce(spans, extremes, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  uint64_t shipped = 0;
  if (me != 0) {
    std::vector<char> bytes;
    for (const RankRecords &rr : mine) {
      detail::encode(rr, bytes);
      shipped += bytes.size();
      sendBytes(bytes, 0, MPI_COMM_WORLD);
    }
    uint64_t total = 0;
    MPI_Reduce(&shipped, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    return std::nullopt;
  }

  double t1 = now();
  std::vector<RankRecords> all(size_t(std::max(ranks, 0)));
  for (size_t k = 0; k < mine.size(); k++) all[size_t(k) * size_t(procs)] = std::move(mine[k]);
  std::vector<char> bytes;
  for (int r = 0; r < ranks; r++) {
    if (owner(r) == 0) continue;
    recvBytes(bytes, owner(r), MPI_COMM_WORLD);
    std::string why;
    if (!detail::decode(bytes, all[size_t(r)], why) || all[size_t(r)].rank != r) {
      all[size_t(r)] = RankRecords{};
      all[size_t(r)].rank = r;
      all[size_t(r)].error = "records from process " + std::to_string(owner(r)) +
                             " unusable: " + (why.empty() ? "another rank's records" : why);
    }
  }
  uint64_t total = 0;
  MPI_Reduce(&shipped, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  double t2 = now();
  MessageTable table = matchRecords(trace, std::move(all));
  if (timings) {
    timings->decodeMax = extremes[0];
    timings->decodeMin = -extremes[1];
    timings->transfer = t2 - t1;
    timings->match = now() - t2;
    timings->bytesShipped = total;
  }
  return table;
}

} // namespace cz::detect::parallel
