// VaryingArrays.h: the count and displacement arrays of MPI_Allgatherv,
// found in the source of the receives it replaces (private to the
// rewriter library).
//
// Each receive of the hand-made exchange stores one rank's block at
// `B + D[I]` (or `&B[D[I]]`) and moves `C[I]` elements. When every
// receive names the same B, C, D and I, with C and D arrays whose
// contents hold at the patch point (no write to them in the region), C
// and D are the call's recvcounts and displs and B its receive buffer.
// A count the trace saw never enters them: without such arrays there is
// no patch, and the suggestion names them as placeholders.
#pragma once

#include <string>
#include <vector>

#include "Arguments.h"

namespace cz::rewrite {

struct VaryingArrays {
  std::string buffer, counts, displs; // counts empty: none found (whyNot says why)
  std::string whyNot;
  std::string index;                  // I as written
  bool indexIsPeer = false;           // I is the rank received from (a direct exchange)
  std::vector<std::string> notes, review; // review: the index is not the peer
  // For the suggestion without arrays: what each placeholder must hold,
  // and where the hand-made receive gives it.
  std::vector<std::string> placeholderNotes;
};

VaryingArrays receiveArrays(const ArgumentContext &c);

} // namespace cz::rewrite
