// main.cpp: GoogleTest under mpirun. Every rank runs every test (the
// collectives need all of them); only rank 0 reports, so the output reads like
// a single-process run. Verdicts are agreed across ranks inside the tests
// (agreement.h), so all ranks reach the same conclusion and no rank hangs
// waiting for one that gave up early.
#include <cstdlib>

#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    // Silence the other ranks: their verdicts reach rank 0 through agreement.
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  MPI_Finalize();
  return failed;
}
