// allgatherv_layout.h: an exchange of every member's block whose blocks
// differ in size (MPI_Allgatherv), told from the broadcasts it is made of
// (root_families.cpp merges them).
#pragma once

#include <vector>

#include "collectivize/detect.h"

namespace cz::detect::detail {

// The blocks of one-root-per-member broadcasts that ran together are not
// all of one size.
bool blockSizesVary(const std::vector<Match *> &ms);

// Makes `all` (the broadcasts' sums) an allgatherv: each member's count,
// the whole buffer's bytes, and where the blocks landed. Every member's
// block arrived at every other member; an allgatherv keeps them at one
// displacement per member, the same on every rank: when the arrivals
// show other places (displacements that differ from rank to rank) the
// layout is "permuted" (MPI_Allgatherv would move the blocks under the
// code that reads them).
void makeAllgatherv(const std::vector<Match *> &ms, Match &all);

} // namespace cz::detect::detail
