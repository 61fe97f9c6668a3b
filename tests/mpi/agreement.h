// agreement.h: one verdict for all ranks. A check that fails on any rank fails
// on every rank, with the first failing rank's explanation, so rank 0 (the one
// that prints) reports problems seen elsewhere and the ranks never diverge
// (a rank that skipped the rest of a test would leave the others hanging).
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace cztest {

// Collective over MPI_COMM_WORLD: every rank must call it at the same point.
// `why` is this rank's explanation, used only when ok is false.
::testing::AssertionResult agreeAcrossRanks(bool ok, const std::string &why);

int worldRank();
int worldSize();

} // namespace cztest
