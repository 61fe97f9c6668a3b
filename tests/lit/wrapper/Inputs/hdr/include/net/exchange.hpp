// exchange.hpp: templates and inline functions with MPI calls, in a project
// header reached through -I: instrumented in the header's copy.
#pragma once
#include <mpi.h>
#include <vector>

#include "config.h"

#define SEND_BOTH(a, b, to)                                                    \
  do {                                                                         \
    MPI_Send(&(a), 1, MPI_INT, to, NET_TAG, MPI_COMM_WORLD);                   \
    MPI_Send(&(b), 1, MPI_INT, to, NET_TAG, MPI_COMM_WORLD);                   \
  } while (0)

template <typename T> MPI_Datatype type_of();
template <> inline MPI_Datatype type_of<int>() { return MPI_INT; }

template <typename T> void push(const std::vector<T> &v, int to) {
  MPI_Send(v.data(), int(v.size()), type_of<T>(), to, NET_TAG, MPI_COMM_WORLD);
}

template <typename T> void pull(std::vector<T> &v, int from) {
  MPI_Recv(v.data(), int(v.size()), type_of<T>(), from, NET_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
}

inline int pull_one(int from) {
  int x = 0;
  MPI_Recv(&x, 1, MPI_INT, from, NET_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return x;
}
