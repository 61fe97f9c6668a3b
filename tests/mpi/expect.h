// expect.h: the one assertion the MPI suites use.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "agreement.h"

// Collective over MPI_COMM_WORLD: fails on every rank if `problem` (this
// rank's finding, "" = fine) is non-empty on any rank. `what` names the case.
#define CZ_EXPECT_ALL_RANKS_OK(what, problem)                               \
  do {                                                                      \
    const std::string cz_problem_ = (problem);                              \
    EXPECT_TRUE(::cztest::agreeAcrossRanks(cz_problem_.empty(),             \
                                           (what) + std::string(": ") +     \
                                               cz_problem_));               \
  } while (0)
