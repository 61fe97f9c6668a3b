// VaryingArrays.h: the count and displacement arrays of MPI_Allgatherv,
// found in the source of the receives it replaces (private to the
// rewriter library).
//
// Each receive of the hand-made exchange stores one rank's block at
// `B + D[I]` (or `&B[D[I]]`) and moves `C[I]` elements. When every
// receive names the same B, C, D and I, with C and D arrays whose
// contents hold at the patch point (no write to them in the region), C
// and D are the call's recvcounts and displs and B its receive buffer.
// When I is not the rank received from (a ring passing blocks on), the
// ring is run on paper (RingAllgatherv.h) to prove which block each
// receive stores. A count the trace saw never enters them: without such
// arrays there is no patch, and the suggestion names them as placeholders.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "Arguments.h"

namespace cz::rewrite {

struct VaryingArrays {
  std::string buffer, counts, displs; // counts empty: none found (whyNot says why)
  std::string whyNot;
  std::string index;                  // I as written
  bool indexIsPeer = false;           // I is the rank received from (a direct exchange)
  // A ring whose index arithmetic, run on paper, leaves some rank without
  // some block at its place (RingAllgatherv.h): no patch, whyNot says where.
  bool wrongBlocks = false;
  std::vector<std::string> notes, review; // review: the index is not the peer
  // For the suggestion without arrays: what each placeholder must hold,
  // and where the hand-made receive gives it.
  std::vector<std::string> placeholderNotes;
};

VaryingArrays receiveArrays(const ArgumentContext &c);

// One side's sites (every send, or every receive) at `B + D[I]` with
// `C[I]` elements, the same B, C, D and I at each, B, C and D holding at
// the patch point, C and D int arrays the region does not write.
struct SideArrays {
  std::string buffer, counts, displs, index; // counts empty: none (whyNot says why)
  std::string whyNot;
  bool indexIsPeer = false; // I is the peer at every site
  // The last site's B, C, D and I.
  std::array<const clang::Expr *, 4> last{};
};
SideArrays sideArrays(const ArgumentContext &c, const std::vector<MessageArgs> &side, bool sending);

// "`text` (line N)" of a source expression, for reasons and notes.
std::string textAt(const ArgumentContext &c, const clang::Expr *e);

// `A[I]` with A a variable: A and I, else nulls.
std::pair<const clang::Expr *, const clang::Expr *> arrayElement(const clang::Expr *e);
// `B + D[I]`, `D[I] + B` or `&B[D[I]]`: B and `D[I]`, else nulls.
std::pair<const clang::Expr *, const clang::Expr *> bufferAtOffset(const clang::Expr *e);

} // namespace cz::rewrite
