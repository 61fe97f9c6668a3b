// RingAllgatherv.h: which rank's block a ring allgatherv's receives store
// where (private to the rewriter library).
//
// In a ring every rank sends one block of its buffer to one neighbour and
// receives one from the other, P-1 times: `B + D[x]`, `C[x]` elements out,
// `B + D[i]`, `C[i]` elements in, x and i expressions of the rank, the
// size and the step. MPI_Allgatherv(MPI_IN_PLACE, .., B, C, D, ..) leaves
// every rank with rank j's block j at D[j]; whether the ring does is run
// on paper (RingEvaluator.h): for every rank at each size tried, which
// rank's block each slot j of B holds after each step. A block only
// counts when it arrives from the slot of the same index (same
// displacement and count on both sides).
#pragma once

#include <string>
#include <vector>

#include "clang/AST/Expr.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct RingBlocks {
  enum Verdict {
    NotRing,    // the sites are no single send and receive in one loop
    Unproven,   // a ring, but what it moves is not evaluated: why
    Wrong,      // evaluated: some rank ends without some rank's block: why
    Proven      // every rank ends with block j from rank j at every size tried
  } verdict = NotRing;
  std::string why;  // Unproven, Wrong
  std::string note; // Proven: what was run
};

// The receive's buffer is base + displs[index] with counts[index]
// elements (VaryingArrays.cpp found them); comm: the communicator's text.
RingBlocks ringAllgathervBlocks(const SourceText &src, const std::vector<MessageArgs> &sends,
                                const std::vector<MessageArgs> &recvs, const clang::Expr *base,
                                const clang::Expr *countArray, const clang::Expr *displsArray,
                                const clang::Expr *recvIndex, const std::string &comm);

} // namespace cz::rewrite
