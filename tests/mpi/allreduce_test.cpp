// allreduce_test.cpp: every allreduce algorithm (and cz_allreduce) against
// PMPI_Allreduce, byte for byte: sizes 0 .. 1 MiB, predefined ops on ints,
// bytes and doubles (MAX/MIN: exact whatever the order), a non-commutative
// user op on a contiguous derived type (2x2 matrix products, where the
// order of the ranks matters), a type with gaps (the library's path),
// MPI_IN_PLACE, sub-communicators, and back-to-back calls with changing
// data and skewed arrival (a reuse race of the window shows as wrong data).
#include <unistd.h>

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "expect.h"

namespace cztest {
namespace {

// 2x2 matrices of unsigned ints, multiplied mod 2^32: associative, not
// commutative. MPI calls it as inout = in * inout.
void matmul(void *in, void *inout, int *len, MPI_Datatype *) {
  const unsigned *a = static_cast<const unsigned *>(in);
  unsigned *b = static_cast<unsigned *>(inout);
  for (int i = 0; i < *len; i++, a += 4, b += 4) {
    const unsigned r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                           a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    std::memcpy(b, r, sizeof r);
  }
}

// Ints with a 4-byte gap after each (extent 8, a non-contiguous type),
// added up: Open MPI defines no predefined op on such a type. The random
// values overflow an int: they are added as unsigned, which wraps (signed
// overflow is undefined; UBSan stops there).
void gappedSum(void *in, void *inout, int *len, MPI_Datatype *) {
  const int *a = static_cast<const int *>(in);
  int *b = static_cast<int *>(inout);
  for (int i = 0; i < *len; i++)
    b[2 * i] = static_cast<int>(static_cast<unsigned>(b[2 * i]) + static_cast<unsigned>(a[2 * i]));
}

struct Kind {
  std::string name;
  MPI_Datatype type;
  MPI_Op op;
  size_t elem;     // bytes per element
  MPI_Aint extent; // bytes an element spans
};

const std::vector<Kind> &kinds() {
  static const std::vector<Kind> k = [] {
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op mul;
    MPI_Op_create(matmul, 0, &mul);
    MPI_Datatype gapped;
    MPI_Type_create_resized(MPI_INT, 0, 8, &gapped);
    MPI_Type_commit(&gapped);
    MPI_Op gsum;
    MPI_Op_create(gappedSum, 1, &gsum);
    return std::vector<Kind>{{"int sum", MPI_INT, MPI_SUM, 4, 4},
                             {"int max", MPI_INT, MPI_MAX, 4, 4},
                             {"byte bor", MPI_BYTE, MPI_BOR, 1, 1},
                             {"double max", MPI_DOUBLE, MPI_MAX, 8, 8},
                             {"matrix product", mat, mul, 16, 16},
                             {"gapped int sum", gapped, gsum, 4, 8}};
  }();
  return k;
}

// Deterministic data per (rank, salt): doubles are whole numbers, matrix
// entries small odd numbers (products stay varied).
Bytes input(const Kind &k, int count, int rank, int salt) {
  Bytes b(static_cast<size_t>(count) * k.extent);
  fillPayload(b, rank, salt);
  if (k.type == MPI_DOUBLE)
    for (int i = 0; i < count; i++) {
      double v = double((rank * 7919 + i * 31 + salt * 101) % 100003) - 5e4;
      std::memcpy(b.data() + size_t(i) * 8, &v, 8);
    }
  if (k.name == "matrix product")
    for (size_t i = 0; i < b.size() / 4; i++) {
      unsigned v = 2u * unsigned((rank * 13 + i * 5 + salt) % 97) + 1u;
      std::memcpy(b.data() + i * 4, &v, 4);
    }
  return b;
}

int runCandidate(const std::string &alg, const void *send, void *recv, int count,
                 const Kind &k, MPI_Comm comm) {
  if (alg == kDispatch) return cz_allreduce(send, recv, count, k.type, k.op, comm);
  return cz_allreduce_algorithm(alg.c_str(), send, recv, count, k.type, k.op, comm);
}

// `calls` calls back to back (skewed if asked), then the library's results
// for the same inputs; receive buffers start as sentinels, gaps included.
std::string checkAllreduce(const std::string &alg, const Kind &k, int count, MPI_Comm comm,
                           bool inPlace = false, int calls = 1, bool skewed = false) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<Bytes> got(calls);
  std::string problem;
  for (int c = 0; c < calls; c++) {
    if (skewed && (rank * 7 + c * 3) % 5 == 0) usleep(300 + 200 * ((rank + c) % 3));
    Bytes in = input(k, count, rank, c);
    got[c].assign(in.size(), 0);
    fillSentinel(got[c]);
    int rc;
    if (inPlace) {
      got[c] = in;
      rc = runCandidate(alg, MPI_IN_PLACE, got[c].data(), count, k, comm);
    } else {
      rc = runCandidate(alg, in.data(), got[c].data(), count, k, comm);
    }
    if (rc != MPI_SUCCESS && problem.empty())
      problem = "call " + std::to_string(c) + ": " + describeReturn(rc);
  }
  for (int c = 0; c < calls; c++) {
    Bytes in = input(k, count, rank, c), want(in.size());
    fillSentinel(want);
    if (inPlace) want = in;
    if (PMPI_Allreduce(inPlace ? MPI_IN_PLACE : in.data(), want.data(), count, k.type, k.op,
                       comm) != MPI_SUCCESS)
      return "reference (MPI library) failed";
    std::string diff = compareBuffers(want, got[c]);
    if (!diff.empty() && problem.empty()) problem = "call " + std::to_string(c) + ": " + diff;
  }
  return problem;
}

int countOf(size_t bytes, const Kind &k) {
  return static_cast<int>((bytes + k.elem - 1) / k.elem);
}

std::string name(const std::string &alg, const Kind &k, size_t bytes, const char *what = "") {
  return alg + " " + k.name + " " + std::to_string(bytes) + " B" + what;
}

class Allreduce : public ::testing::TestWithParam<std::string> {};

TEST_P(Allreduce, SizesOpsAndTypes) {
  const int size = worldSize();
  for (size_t bytes : {size_t(0), size_t(4), size_t(28), size_t(1024), size_t(64) << 10,
                       size_t(1) << 20})
    for (const Kind &k : kinds()) {
      // Oversubscribed large P: 1 MiB only for the plain int sum (time).
      if (bytes == (size_t(1) << 20) && size > 8 && k.name != "int sum") continue;
      CZ_EXPECT_ALL_RANKS_OK(name(GetParam(), k, bytes),
                             checkAllreduce(GetParam(), k, countOf(bytes, k), MPI_COMM_WORLD));
    }
}

TEST_P(Allreduce, InPlace) {
  for (const Kind &k : kinds())
    for (size_t bytes : {size_t(16), size_t(4096)})
      CZ_EXPECT_ALL_RANKS_OK(name(GetParam(), k, bytes, " in place"),
                             checkAllreduce(GetParam(), k, countOf(bytes, k), MPI_COMM_WORLD,
                                            true));
}

TEST_P(Allreduce, SubCommunicators) {
  for (const NamedComm &comm : testCommunicators())
    for (const Kind &k : kinds())
      CZ_EXPECT_ALL_RANKS_OK(comm.name + " " + name(GetParam(), k, 2048),
                             checkAllreduce(GetParam(), k, countOf(2048, k), comm.comm));
}

// Calls back to back with fresh data, some ranks late: ranks that race ahead
// reuse the window while slow ones may still read it.
TEST_P(Allreduce, BackToBackCallsWithSkewedArrival) {
  const int calls = worldSize() <= 8 ? 30 : 12;
  for (const Kind &k : {kinds()[0], kinds()[4]})
    for (size_t bytes : {size_t(64), size_t(8192)})
      CZ_EXPECT_ALL_RANKS_OK(name(GetParam(), k, bytes, " x calls, skewed"),
                             checkAllreduce(GetParam(), k, countOf(bytes, k), MPI_COMM_WORLD,
                                            false, calls, true));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, Allreduce,
                         ::testing::ValuesIn(algorithmsOf(CZ_COLL_ALLREDUCE)), paramName);

} // namespace
} // namespace cztest
