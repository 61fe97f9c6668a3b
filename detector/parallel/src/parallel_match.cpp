// parallel_match.cpp: see parallel_match.h. The phases in order, each a
// collective step of all processes.
#include "collectivize/parallel_match.h"

#include <mpi.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <cstdint>

#include "causal_times.h"
#include "collect_at_root.h"
#include "distributed_match.h"
#include "distributed_provenance.h"
#include "windows_at_owners.h"

namespace cz::detect::parallel {
namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double peakMegabytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
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

void Session::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort(); // (MPI_Abort does not return)
}

std::optional<ParallelResult> readMatchAndReplay(const Session &s, const trace::Trace &trace,
                                                 const std::string &traceDir,
                                                 const DetectOptions &options,
                                                 std::vector<ProcessTimes> *times) {
  const int ranks = trace.rankCount(), procs = s.size(), me = s.rank();
  ProcessTimes mine;
  double t = now();
  std::vector<RankRecords> owned;
  for (int r = me; r < ranks; r += procs) owned.push_back(decodeRank(trace, r));
  mine.ranks = owned.size();
  mine.decode = now() - t, t = now();

  DistributedMatch match = matchAtReceivers(MPI_COMM_WORLD, ranks, std::move(owned));
  // Clocks of several nodes: times that contradict the matching are raised.
  orderCausallyAcross(MPI_COMM_WORLD, ranks, match);
  mine.routedBytes = match.bytesRouted;
  mine.sentRecords = match.replay.sent.size();
  mine.match = now() - t, t = now();

  ReplayStats rs;
  ReplayPart part = replayDistributed(MPI_COMM_WORLD, match.replay, &rs);
  match.replay.received = {}; // process 0 needs the sent messages only
  mine.replay = now() - t, t = now();
  mine.replayWaiting = rs.waiting;
  mine.replayBytes = rs.bytesSent;

  std::optional<ParallelResult> out;
  WindowPlan plan = planWindowsTogether(MPI_COMM_WORLD, match.replay.sent, options.windowMessages);
  if (plan.windows() == 1) {
    out = collectAtRoot(MPI_COMM_WORLD, trace, std::move(match), std::move(part), &mine.bytesToRoot);
    mine.transfer = now() - t;
  } else {
    for (size_t w = size_t(me); w < plan.windows(); w += size_t(procs)) mine.windows++;
    std::optional<WindowedFindings> found =
        analyseWindows(MPI_COMM_WORLD, trace, traceDir, std::move(match), std::move(part), plan,
                       options, &mine.bytesToRoot);
    mine.windows_s = now() - t;
    if (found) {
      out.emplace();
      out->table = std::move(found->header);
      out->windowed = true;
      out->windows = found->windows;
      out->findings = std::move(found->findings);
      out->sites = std::move(found->sites);
      out->symbolizeProblem = std::move(found->symbolizeProblem);
      out->instrumenterSites = std::move(found->instrumenterSites);
    }
  }
  mine.peakMegabytes = peakMegabytes();
  std::vector<ProcessTimes> all(size_t(me == 0 ? procs : 0));
  MPI_Gather(&mine, int(sizeof mine), MPI_BYTE, all.data(), int(sizeof mine), MPI_BYTE, 0,
             MPI_COMM_WORLD);
  if (times && me == 0) *times = std::move(all);
  return out;
}

} // namespace cz::detect::parallel
