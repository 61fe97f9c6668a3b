#include "agreement.h"

#include <cstring>

#include <mpi.h>

namespace cztest {

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int worldSize() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

::testing::AssertionResult agreeAcrossRanks(bool ok, const std::string &why) {
  int size = worldSize();
  int mine = ok ? size : worldRank(), firstBad = size;
  MPI_Allreduce(&mine, &firstBad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (firstBad == size) return ::testing::AssertionSuccess();
  // The first failing rank explains; everyone reports the same text.
  char text[1024] = "";
  if (worldRank() == firstBad)
    std::snprintf(text, sizeof text, "%s", why.c_str());
  MPI_Bcast(text, sizeof text, MPI_CHAR, firstBad, MPI_COMM_WORLD);
  return ::testing::AssertionFailure() << "rank " << firstBad << ": " << text;
}

} // namespace cztest
