// shm_test.cpp: what the shared-memory collectives (alltoall shm_push,
// shm_pull and their round-flag versions shm_flag_push and shm_flag_pull,
// allgather shm and shm_flag, bcast shm) need beyond the generic suites, which
// already run them like every registered algorithm: large blocks that take
// several rounds through the window, many back-to-back calls with changing
// data and skewed arrival (a reuse race of the double-buffered window shows
// as wrong data; barrier and flag rounds mixed on one communicator), several
// communicators alive at once and interleaved, and
// communicators freed and made again. All byte for byte against the MPI
// library. Shm.* runs in mpi_np* launches; under COLLECTIVIZE_SHM_BYTES the
// same cases exercise tiny windows (many rounds) or the fallback.
#include <unistd.h>

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "block_collectives.h"
#include "expect.h"
#include "stderr_capture.h"

namespace cztest {
namespace {

const char *const kAlltoallShm[] = {"shm_push", "shm_pull", "shm_flag_push",
                                     "shm_flag_pull"};

// Rank- and call-dependent delay: some ranks reach call i late, others
// early, and who is late changes from call to call.
void skew(int rank, int call) {
  if ((rank * 7 + call * 3) % 5 == 0) usleep(300 + 200 * ((rank + call) % 3));
}

std::string bcastAgainstLibrary(const char *algorithm, const Layout &layout,
                                int count, int root, MPI_Comm comm, int salt) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Bytes expected(static_cast<size_t>(count) * layout.extent);
  if (rank == root) fillPayload(expected, root, salt);
  else fillSentinel(expected);
  Bytes actual = expected;
  int rc = cz_bcast_algorithm(algorithm, actual.data(), count, layout.type, root, comm);
  if (PMPI_Bcast(expected.data(), count, layout.type, root, comm) != MPI_SUCCESS)
    return "reference failed";
  if (rc != MPI_SUCCESS) return describeReturn(rc);
  std::string diff = compareBuffers(expected, actual);
  return diff.empty() ? "" : "buffer: " + diff;
}

// Blocks of 256 KiB and 1 MiB: at P >= 8 an alltoall needs more than the
// default window half holds (2·P·m > 64 MiB / P), so it takes several
// rounds. 1 MiB alltoall blocks only up to P = 4 (16 MiB per rank at P = 16
// would dominate the suite's time on a small machine).
TEST(Shm, LargeBlocks) {
  const int size = worldSize();
  for (size_t bytes : {size_t(256) << 10, size_t(1) << 20})
    for (const char *type : {"MPI_BYTE", "strided_ints"}) {
      const Layout &layout = layoutNamed(type);
      // Oversubscribed large P: the contiguous path only (time).
      if (size > 8 && layout.name != "MPI_BYTE") continue;
      const int count = countFor(bytes, layout);
      if (bytes < (size_t(1) << 20) || size <= 4)
        for (const char *alg : kAlltoallShm)
          CZ_EXPECT_ALL_RANKS_OK(caseName(alg, layout, bytes, count),
                                 checkBlockCollective(CZ_COLL_ALLTOALL, alg,
                                                      sameTypes(layout, count)));
      for (const char *alg : {"shm", "shm_flag"})
        CZ_EXPECT_ALL_RANKS_OK(caseName(std::string("allgather ") + alg, layout, bytes, count),
                               checkBlockCollective(CZ_COLL_ALLGATHER, alg,
                                                    sameTypes(layout, count)));
      for (int root : {0, size - 1})
        CZ_EXPECT_ALL_RANKS_OK(caseName("bcast shm", layout, bytes, count) + " root " +
                                   std::to_string(root),
                               bcastAgainstLibrary("shm", layout, count, root,
                                                   MPI_COMM_WORLD, root));
    }
}

// 40 calls (16 at P > 8) in a row with fresh data each time; every fifth rank-call pair
// arrives late. Ranks that race ahead reuse the window while slow ones may
// still read it: double buffering must keep them apart. The library's
// results are computed afterwards, so nothing synchronizes the calls.
enum Kind { kAlltoall, kAllgather, kBcast };

// One back-to-back case: a collective and the algorithms its calls rotate
// through (several: barrier rounds and flag rounds mixed on one
// communicator, each call's window half chosen by the shared round count).
struct ShmCase {
  std::string name;
  Kind kind;
  std::vector<const char *> algorithms;
};

const std::vector<ShmCase> &backToBackCases() {
  static const std::vector<ShmCase> cases = {
      {"shm_push", kAlltoall, {"shm_push"}},
      {"shm_pull", kAlltoall, {"shm_pull"}},
      {"shm_flag_push", kAlltoall, {"shm_flag_push"}},
      {"shm_flag_pull", kAlltoall, {"shm_flag_pull"}},
      {"alltoall mixed", kAlltoall, {"shm_flag_pull", "shm_push", "shm_flag_push", "shm_pull"}},
      {"allgather shm", kAllgather, {"shm"}},
      {"allgather shm_flag", kAllgather, {"shm_flag"}},
      {"allgather mixed", kAllgather, {"shm_flag", "shm_flag", "shm"}},
      {"bcast shm", kBcast, {"shm"}}};
  return cases;
}

int runShm(Kind kind, const char *alg, const Bytes &send, Bytes &out, int count, int root) {
  if (kind == kAlltoall)
    return cz_alltoall_algorithm(alg, send.data(), count, MPI_INT, out.data(), count, MPI_INT,
                                 MPI_COMM_WORLD);
  if (kind == kAllgather)
    return cz_allgather_algorithm(alg, send.data(), count, MPI_INT, out.data(), count,
                                  MPI_INT, MPI_COMM_WORLD);
  return cz_bcast_algorithm(alg, out.data(), count, MPI_INT, root, MPI_COMM_WORLD);
}

int runLibrary(Kind kind, const Bytes &send, Bytes &out, int count, int root) {
  if (kind == kAlltoall)
    return PMPI_Alltoall(send.data(), count, MPI_INT, out.data(), count, MPI_INT,
                         MPI_COMM_WORLD);
  if (kind == kAllgather)
    return PMPI_Allgather(send.data(), count, MPI_INT, out.data(), count, MPI_INT,
                          MPI_COMM_WORLD);
  return PMPI_Bcast(out.data(), count, MPI_INT, root, MPI_COMM_WORLD);
}

TEST(Shm, BackToBackCallsWithSkewedArrival) {
  const int rank = worldRank(), size = worldSize();
  // Fewer calls and no 64 KiB blocks where ranks far outnumber cores.
  const int calls = size <= 8 ? 40 : 16;
  const Layout &ints = layoutNamed("MPI_INT");
  for (size_t bytes : {size_t(8), size_t(4096), size_t(64) << 10}) {
    if (size > 8 && bytes > 4096) continue;
    const int count = countFor(bytes, ints);
    const size_t block = static_cast<size_t>(count) * ints.extent;
    for (const ShmCase &c : backToBackCases()) {
      const size_t sendLen = c.kind == kAlltoall ? block * size : block;
      const size_t recvLen = c.kind == kBcast ? block : block * size;
      auto start = [&](int call, Bytes &send, Bytes &out) {
        send.assign(sendLen, 0);
        fillPayload(send, rank, call);
        out.assign(recvLen, 0);
        fillSentinel(out);
        if (c.kind == kBcast && rank == call % size) out = send;
      };
      std::string problem;
      std::vector<Bytes> got(calls);
      Bytes send, want;
      for (int call = 0; call < calls; call++) {
        skew(rank, call);
        start(call, send, got[call]);
        const char *alg = c.algorithms[call % c.algorithms.size()];
        int rc = runShm(c.kind, alg, send, got[call], count, call % size);
        if (rc != MPI_SUCCESS && problem.empty())
          problem = "call " + std::to_string(call) + " (" + alg + "): " + describeReturn(rc);
      }
      for (int call = 0; call < calls; call++) {
        start(call, send, want);
        runLibrary(c.kind, send, want, count, call % size);
        std::string diff = compareBuffers(want, got[call]);
        if (!diff.empty() && problem.empty())
          problem = "call " + std::to_string(call) + " (" +
                    c.algorithms[call % c.algorithms.size()] + "): " + diff;
      }
      CZ_EXPECT_ALL_RANKS_OK(c.name + " " + std::to_string(bytes) + " B x " +
                                 std::to_string(calls), problem);
    }
  }
}

// Calls on four communicators (each with its own window) interleaved, the
// order differing between rounds; then communicators freed and made again
// (their windows go with them) many times.
TEST(Shm, SeveralCommunicatorsAlive) {
  const int rank = worldRank();
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  std::vector<MPI_Comm> comms = {MPI_COMM_WORLD, dup};
  for (const NamedComm &c : testCommunicators())
    if (c.comm != MPI_COMM_WORLD) comms.push_back(c.comm);
  const Layout &strided = layoutNamed("strided_ints");
  for (int round = 0; round < 4; round++)
    for (size_t k = 0; k < comms.size(); k++) {
      MPI_Comm comm = comms[(k + round) % comms.size()];
      BlockCall call = sameTypes(strided, countFor(1000 + 300 * round, strided));
      call.comm = comm;
      call.salt = round;
      const std::string what = "round " + std::to_string(round) + " comm " +
                               std::to_string((k + round) % comms.size());
      for (const char *alg : {"shm_pull", "shm_flag_push"})
        CZ_EXPECT_ALL_RANKS_OK(what + " " + alg,
                               checkBlockCollective(CZ_COLL_ALLTOALL, alg, call));
      for (const char *alg : {"shm", "shm_flag"})
        CZ_EXPECT_ALL_RANKS_OK(what + " allgather " + alg,
                               checkBlockCollective(CZ_COLL_ALLGATHER, alg, call));
      int size = 0;
      MPI_Comm_size(comm, &size);
      CZ_EXPECT_ALL_RANKS_OK(what + " bcast",
                             bcastAgainstLibrary("shm", strided, call.sendCount,
                                                 round % size, comm, round));
    }
  MPI_Comm_free(&dup);
  std::string problem;
  for (int i = 0; i < 10 && problem.empty(); i++) {
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, (i % 2) ? -rank : rank, &c);
    BlockCall call = sameTypes(layoutNamed("MPI_DOUBLE"), 64 + i);
    call.comm = c;
    call.salt = i;
    problem = checkBlockCollective(CZ_COLL_ALLTOALL, i % 2 ? "shm_flag_pull" : "shm_push", call);
    MPI_Comm_free(&c);
  }
  CZ_EXPECT_ALL_RANKS_OK("10 communicators made, used and freed", problem);
}

// Send data in cz_buffer_alloc memory: peers read it in place (one copy).
// Collective 0 alltoall shm_pull, 1 allgather shm, 2 bcast shm (the root
// moves from call to call; every rank's buffer is the same kind).
// Cases: every rank's data there, only even ranks' (mixed direct and staged
// in one call), many rounds (large blocks, default window), a buffer made on
// another communicator (staged), in-place allgather with recvbuf there, and
// 20 calls rewriting the buffer with skewed arrival (a rank must not return,
// and overwrite its data, while peers still read it).
std::string zeroCopyCase(int collective, MPI_Comm comm, MPI_Comm bufComm, size_t bytes,
                         bool useBuffer, int calls, bool inPlace = false) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int count = static_cast<int>(bytes / sizeof(int));
  const size_t block = static_cast<size_t>(count) * sizeof(int);
  const size_t sendLen = collective == 0 ? block * size : block;
  const size_t recvLen = collective == 2 ? block : block * size;
  unsigned char *shared = nullptr;
  const size_t sharedLen = inPlace ? recvLen : sendLen;
  if (cz_buffer_alloc(bufComm, static_cast<MPI_Aint>(sharedLen), &shared) != MPI_SUCCESS)
    return std::string("cz_buffer_alloc: ") + cz_last_error();
  Bytes plain(sharedLen);
  unsigned char *send = useBuffer ? shared : plain.data();
  std::string problem;
  for (int call = 0; call < calls && problem.empty(); call++) {
    skew(rank, call);
    Bytes payload(sendLen);
    fillPayload(payload, rank, call);
    Bytes want(recvLen), got(recvLen);
    fillSentinel(want);
    fillSentinel(got);
    int rc;
    if (collective == 0) {
      std::memcpy(send, payload.data(), sendLen);
      rc = cz_alltoall_algorithm("shm_pull", send, count, MPI_INT, got.data(), count, MPI_INT,
                                 comm);
      PMPI_Alltoall(payload.data(), count, MPI_INT, want.data(), count, MPI_INT, comm);
    } else if (collective == 2) {
      const int root = call % size;
      fillPayload(want, root, call);
      std::memcpy(send, rank == root ? want.data() : got.data(), block);
      rc = cz_bcast_algorithm("shm", send, count, MPI_INT, root, comm);
      std::memcpy(got.data(), send, block);
    } else if (!inPlace) {
      std::memcpy(send, payload.data(), sendLen);
      rc = cz_allgather_algorithm("shm", send, count, MPI_INT, got.data(), count, MPI_INT, comm);
      PMPI_Allgather(payload.data(), count, MPI_INT, want.data(), count, MPI_INT, comm);
    } else {
      unsigned char *recv = useBuffer ? shared : plain.data();
      std::memcpy(recv, got.data(), recvLen);
      std::memcpy(recv + rank * block, payload.data(), block);
      rc = cz_allgather_algorithm("shm", MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, count,
                                  MPI_INT, comm);
      std::memcpy(got.data(), recv, recvLen);
      PMPI_Allgather(payload.data(), count, MPI_INT, want.data(), count, MPI_INT, comm);
    }
    if (rc != MPI_SUCCESS) problem = describeReturn(rc);
    else problem = compareBuffers(want, got);
    if (!problem.empty()) problem = "call " + std::to_string(call) + ": " + problem;
  }
  if (cz_buffer_free(shared) != MPI_SUCCESS && problem.empty())
    problem = std::string("cz_buffer_free: ") + cz_last_error();
  return problem;
}

TEST(Shm, ZeroCopyBuffers) {
  const int rank = worldRank(), size = worldSize();
  MPI_Comm other;
  MPI_Comm_dup(MPI_COMM_WORLD, &other);
  const size_t large = size <= 4 ? size_t(1) << 20 : size <= 8 ? size_t(256) << 10
                                                               : size_t(32) << 10;
  for (int coll = 0; coll < 3; coll++) {
    const std::string name =
        coll == 0 ? "alltoall shm_pull" : coll == 1 ? "allgather shm" : "bcast shm";
    for (size_t bytes : {size_t(4), size_t(4096), large}) {
      const std::string sz = " " + std::to_string(bytes) + " B";
      CZ_EXPECT_ALL_RANKS_OK(name + sz + " all in buffers",
                             zeroCopyCase(coll, MPI_COMM_WORLD, MPI_COMM_WORLD, bytes, true, 3));
      CZ_EXPECT_ALL_RANKS_OK(name + sz + " even ranks in buffers",
                             zeroCopyCase(coll, MPI_COMM_WORLD, MPI_COMM_WORLD, bytes,
                                          rank % 2 == 0, 3));
      CZ_EXPECT_ALL_RANKS_OK(name + sz + " buffer of another communicator",
                             zeroCopyCase(coll, MPI_COMM_WORLD, other, bytes, true, 2));
    }
    // (bcast reads the root's buffer in place from one segment, 16 KiB, up)
    CZ_EXPECT_ALL_RANKS_OK(name + " rewrites, skewed",
                           zeroCopyCase(coll, MPI_COMM_WORLD, MPI_COMM_WORLD,
                                        coll == 2 ? 65536 : 2048, true, size <= 8 ? 20 : 8));
  }
  CZ_EXPECT_ALL_RANKS_OK("allgather shm in place, recvbuf in a buffer",
                         zeroCopyCase(1, MPI_COMM_WORLD, MPI_COMM_WORLD, 4096, true, 5, true));
  MPI_Comm_free(&other);
  int local = 0;
  int rc = cz_buffer_free(&local);
  CZ_EXPECT_ALL_RANKS_OK("cz_buffer_free of a stack address",
                         rc == MPI_ERR_BUFFER ? "" : "returned " + std::to_string(rc));
  (void)size;
}

} // namespace
} // namespace cztest
