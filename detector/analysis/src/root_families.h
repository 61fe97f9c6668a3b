// root_families.h: broadcasts that belong together because only their
// roots differ.
#pragma once

#include <set>
#include <vector>

#include "collectivize/detect.h"

namespace cz::detect::detail {

// Bcast matches on one whole communicator group, one root each:
//  - at the same call sites, one per member, each root sending its own
//    data before it received anyone else's (they run together): one
//    exchange. When every member keeps the blocks apart it is an
//    allgather; when they arrive in one place it is an allreduce whose
//    blocks are combined as they come (or copied out: unproven kCombined).
//  - at the same call sites, one root after the other (each root had
//    received the data before it sent its own: a loop over panels owned by
//    different ranks): one bcast whose root varies (Match::roots), unless
//    every one of them carries a constant fill (then nothing); ambiguous
//    (kInterleaved) when they do not come one after another: two overlap
//    at a rank (Match::overlapsOtherRoots) or reach two members in
//    opposite orders (random pairs swapping their buffers).
//  - at different call sites, one per member, running together and kept
//    apart: an allgather (each rank's block sent by code of its own).
// The merged matches go to `out`, the matches they replace to `merged`.
void mergeRootFamilies(std::vector<Match *> &matches, std::set<Match *> &merged,
                       std::vector<Match> &out);

} // namespace cz::detect::detail
