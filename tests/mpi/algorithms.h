// algorithms.h: what the suites iterate over. Algorithm names come from the
// library's registry itself (cz_algorithm_info), so an algorithm added to the
// registry is tested without touching the tests.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include "buffers.h"
#include "collectivize.h"

namespace cztest {

// Pseudo-algorithm: the dispatching entry point (cz_alltoall, ...), which
// picks an algorithm from the decision table.
extern const char kDispatch[];

// Every algorithm of coll as a name cz_<coll>_algorithm accepts; one taking
// a parameter (Bruck's radix, default 2) also with the two values after its
// default that its range allows ("bruck", "bruck:3", "bruck:4"). Then kDispatch.
std::vector<std::string> algorithmsOf(cz_collective coll);

// gtest parameter names must be identifiers: "bruck:3" -> "bruck_3".
std::string paramName(const ::testing::TestParamInfo<std::string> &info);

// Byte targets per block (alltoall, allgather, alltoallv unit) or per message
// (bcast).
const std::vector<size_t> &byteTargets();

// The 64 KiB cases dominate the run time of oversubscribed jobs. Up to 16
// ranks every datatype runs (P=16 takes ~10 s on 2 cores); beyond, only
// MPI_BYTE (contiguous path) and the strided type (pack/unpack path).
bool coveredAt(size_t bytes, const Layout &layout, int nprocs);

struct NamedComm {
  std::string name;
  MPI_Comm comm;
};
// MPI_COMM_WORLD, an odd/even split and a reversed-rank copy of the world.
const std::vector<NamedComm> &testCommunicators();

} // namespace cztest
