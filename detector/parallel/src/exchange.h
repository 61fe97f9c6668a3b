// exchange.h: MPI_Alltoallv of plain records between the processes.
#pragma once

#include <mpi.h>

#include <climits>
#include <stdexcept>
#include <vector>

namespace cz::detect::parallel {

inline MPI_Datatype bytesType(size_t size) {
  MPI_Datatype t;
  MPI_Type_contiguous(int(size), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  return t;
}

// Counts and displacements of an MPI_Alltoallv, from the counts per process.
struct Layout {
  std::vector<int> counts, displs;
  explicit Layout(const std::vector<size_t> &n) : counts(n.size()), displs(n.size()) {
    size_t at = 0;
    for (size_t q = 0; q < n.size(); q++) {
      if (n[q] > size_t(INT_MAX) || at > size_t(INT_MAX))
        throw std::runtime_error("more than 2^31 records between two processes");
      counts[q] = int(n[q]), displs[q] = int(at), at += n[q];
    }
  }
  size_t total() const { return counts.empty() ? 0 : size_t(displs.back()) + size_t(counts.back()); }
};

template <class T>
std::vector<T> exchange(MPI_Comm comm, const std::vector<T> &out, const Layout &send,
                        const Layout &recv) {
  std::vector<T> in(recv.total());
  MPI_Datatype t = bytesType(sizeof(T));
  MPI_Alltoallv(out.data(), send.counts.data(), send.displs.data(), t, in.data(),
                recv.counts.data(), recv.displs.data(), t, comm);
  MPI_Type_free(&t);
  return in;
}

// The counts each process will receive, from what each sends it.
inline std::vector<size_t> arrivingCounts(MPI_Comm comm, const std::vector<size_t> &sending) {
  std::vector<unsigned long long> out(sending.begin(), sending.end()), in(sending.size());
  MPI_Alltoall(out.data(), 1, MPI_UNSIGNED_LONG_LONG, in.data(), 1, MPI_UNSIGNED_LONG_LONG, comm);
  return std::vector<size_t>(in.begin(), in.end());
}

// out holds the records for process q at [offset q, offset q + n[q]) in
// process order; returns what the others sent this one, in process order.
template <class T>
std::vector<T> exchangeCounted(MPI_Comm comm, const std::vector<T> &out,
                               const std::vector<size_t> &n) {
  return exchange(comm, out, Layout(n), Layout(arrivingCounts(comm, n)));
}

} // namespace cz::detect::parallel
