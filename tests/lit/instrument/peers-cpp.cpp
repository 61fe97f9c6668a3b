// Peer classes in C++: a std::vector of neighbours read through
// operator[] is a table, in a plain function and in a function template
// (miniFE's make_local_matrix: at 4 ranks its neighbour exchange reached
// every rank and was taken for an alltoall while its peers read as a loop).
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- mpicxx -std=c++17
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
#include <mpi.h>
#include <vector>

void plain(const std::vector<int> &recv_list, int *lengths) {
  for (size_t i = 0; i < recv_list.size(); ++i)
    MPI_Send(&lengths[i], 1, MPI_INT, recv_list[i], 99, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"peers":["table"]}
}

template <typename T>
void templated(const std::vector<int> &recv_list, std::vector<T> &data) {
  for (size_t i = 0; i < recv_list.size(); ++i) {
    int partner = recv_list[i];
    MPI_Send(&data[i], 1, MPI_INT, partner, 98, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["table"]}
  }
}

template void templated<int>(const std::vector<int> &, std::vector<int> &);
