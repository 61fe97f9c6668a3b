// distributed_provenance.cpp: see distributed_provenance.h.
#include "distributed_provenance.h"

#include <chrono>
#include <climits>
#include <deque>
#include <stdexcept>

namespace cz::detect::parallel {
namespace {

constexpr int kReplayTag = 71;
constexpr size_t kFlushSteps = 1 << 14;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

ReplayPart replayDistributed(MPI_Comm world, const ReplayInput &in, ReplayStats *stats) {
  MPI_Comm comm;
  MPI_Comm_dup(world, &comm); // the replay's records meet no other traffic
  const int procs = in.procs;
  const double t0 = now();
  double waiting = 0;
  uint64_t bytesSent = 0;
  ReplayProcess rp(in);
  std::deque<std::vector<char>> inFlight; // buffers of the pending MPI_Isends
  std::vector<MPI_Request> requests;
  std::vector<char> incoming;
  auto receive = [&](const MPI_Status &st) {
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    incoming.resize(size_t(n));
    MPI_Recv(incoming.data(), n, MPI_BYTE, st.MPI_SOURCE, kReplayTag, comm, MPI_STATUS_IGNORE);
    if (!rp.deliver(incoming.data(), incoming.size()))
      throw std::runtime_error("malformed replay records from process " +
                               std::to_string(st.MPI_SOURCE));
  };
  for (;;) {
    rp.run(kFlushSteps);
    for (int q = 0; q < procs; q++) {
      if (!rp.hasRecords(q)) continue;
      inFlight.push_back(rp.takeRecords(q));
      const std::vector<char> &b = inFlight.back();
      if (b.size() > size_t(INT_MAX)) throw std::runtime_error("replay records over 2 GiB");
      bytesSent += b.size();
      requests.emplace_back();
      MPI_Isend(b.data(), int(b.size()), MPI_BYTE, q, kReplayTag, comm, &requests.back());
    }
    // Buffers of completed sends go (the records add up to every segment
    // the process's ranks sent).
    for (size_t k = 0; k < requests.size(); k++) {
      int done = 0;
      if (requests[k] == MPI_REQUEST_NULL) continue;
      MPI_Test(&requests[k], &done, MPI_STATUS_IGNORE);
      if (done) std::vector<char>().swap(inFlight[k]);
    }
    if (rp.finished()) break;
    MPI_Status st;
    int flag = 0;
    if (!rp.canRun()) { // nothing to do until records come
      double w = now();
      MPI_Probe(MPI_ANY_SOURCE, kReplayTag, comm, &st);
      waiting += now() - w;
      receive(st);
    }
    for (;;) {
      MPI_Iprobe(MPI_ANY_SOURCE, kReplayTag, comm, &flag, &st);
      if (!flag) break;
      receive(st);
    }
  }
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  MPI_Comm_free(&comm);
  if (stats) {
    stats->seconds = now() - t0;
    stats->waiting = waiting;
    stats->recordsSent = rp.recordsSent;
    stats->recordsReceived = rp.recordsReceived;
    stats->bytesSent = bytesSent;
  }
  return rp.result();
}

} // namespace cz::detect::parallel
