// final_combine.h: an allreduce whose last receipts no value shows combined.
//
// In an allreduce read from the messages, a member's last receipts (after
// its last send of the instance) are either the result, sent down a tree
// (one value to every member it reaches), or partial results it must still
// combine, as in a butterfly's last step, which no later message shows.
// That combine is read from the code: the last step goes through the
// receive call (site and caller) that earlier, combined receipts of the
// instance went through, the loop's. A receive call of its own that brings
// other values to other members in the last step may keep what arrives
// apart (rows summed by a butterfly, then swapped across rows into another
// buffer): not proven (kFinalCombine). One that brings one value to all
// is the result going down (the ranks outside a hypercube, BLACS).
#pragma once

#include <vector>

#include "detect_internal.h"

namespace cz::detect::detail {

// Marks every allreduce instance of `instances` whose last receipts are so.
void markUnseenFinalCombines(const MessageTable &t, std::vector<Instance> &instances);

} // namespace cz::detect::detail
