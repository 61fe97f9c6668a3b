// RootedVaryingCall.h: MPI_Gatherv and MPI_Scatterv on the program's own
// count and displacement arrays, found where the root's messages read
// them (private to the rewriter library).
//
// A direct (linear) gather whose root receives rank q's block into
// `B + D[q]`, `C[q]` elements, q the peer (VaryingArrays.h finds B, C, D
// on the root's side), and whose members send `buf`, `n` elements: the
// call is MPI_Gatherv(me == root ? MPI_IN_PLACE : buf, n, T, B, C, D, T,
// root, comm); a scatter the mirror image. The root's own block stays
// where it is (MPI_IN_PLACE), as the original's root, which moves only
// the other ranks' blocks, left it: exact whenever the root sent itself
// no message (the trace's message count shows it).
//
// The call needs C[q] at the root to equal n at rank q (a point-to-point
// receive may be posted for more than arrives; the trace records what
// arrived). The patch is proposed only when both are evaluated from the
// source (ArrayFills.h) for every rank and root at P = 2, 3, 4, 5, 7 and
// the traced size, and agree there and with the trace's counts, with the
// blocks at the root disjoint; a value the source does not give makes it
// one to review, and a count that contradicts the trace none. No value
// the trace saw enters the call.
#pragma once

#include <string>

#include "AlltoallvCall.h"

namespace cz::rewrite {

// root, rank: the root's and the rank's text, valid at the patch point.
VaryingCall rootedVaryingCall(const ArgumentContext &c, const std::string &comm, const std::string &root,
                              const std::string &rank, bool scatter);

} // namespace cz::rewrite
