// AlltoallvCall.h: MPI_Alltoallv on the program's own count and
// displacement arrays, found in the source of the messages it replaces
// (private to the rewriter library).
//
// A direct (linear) exchange sends `S + SD[q]`, `SC[q]` elements to rank
// q and receives `R + RD[q]`, `RC[q]` elements from q, q the peer at every
// site (VaryingArrays.h finds the arrays per side). The call also moves
// the rank's own block, S + SD[me] to R + RD[me]: the patch is proposed
// only when the replaced region copies exactly that block itself (a loop
// of element copies or a memcpy, which the patch drops: the call makes
// it) or sends it to itself (every site in a loop over all ranks, under no
// condition); otherwise it is one to review. No value the trace saw enters the call: without arrays
// there is no patch, only a suggestion with placeholders.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "Arguments.h"

namespace cz::rewrite {

struct VaryingCall {
  std::string call;       // "" : no patch (whyNot says why)
  std::string whyNot;
  std::string suggestion; // no arrays: the call with <placeholders> to supply by hand
  std::vector<std::string> notes, review;
};

// Statements of the sites' function that copy a rank's own block
// (`R[RD[v] + i] = S[SD[v] + i]` over i below RC[v] or SC[v], or the same
// memcpy) with the arrays the first send and receive name: the region
// drops those at its top level (RegionRequest::ownBlockCopies), since
// the call makes that copy; alltoallvCall proves v is the rank.
std::set<const clang::Stmt *> ownBlockCopies(const SourceText &src, const std::vector<MessageArgs> &sends,
                                             const std::vector<MessageArgs> &recvs);

// The datatype every site of one side names, valid at the patch point;
// "" with whyNot naming call when they differ or it is not valid there.
std::string sideType(const ArgumentContext &c, const std::vector<MessageArgs> &side, const char *what,
                     const std::string &call, std::string &whyNot);

// comm: the communicator's text, valid at the patch point.
VaryingCall alltoallvCall(const ArgumentContext &c, const std::string &comm);

} // namespace cz::rewrite
