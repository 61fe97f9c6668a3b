// closed_shift.h: a chain of equal messages ending at one rank is the
// shape of a reduce, and also of one step of a shift. In a shift every
// rank sends to its neighbour and receives from the other neighbour in
// every step (a random walk passing walkers to rank + 1, a pipeline that
// wraps around). When the messages vary in size, the reduction rounds
// (the k-th message of one size on every pair) pick pieces of different
// steps, and which pairs happen to line up into a chain depends on the
// run's data and on where each rank's sizes fall, so the same program
// gave a "reduce" in one run and none in the next.
//
// The evidence that does not depend on the run: the root of a reduce
// receives and never sends its result down the same code to the ranks
// that started it. If the candidate root sends, anywhere in the trace,
// from one of the instance's send sites, on its communicator and tag, to
// a leaf of the instance (a member that sends in it and receives nothing
// in it), received at one of the instance's receive sites, the messages
// close a ring through the same code: a shift, not a reduce.
//
// A linear-pipeline reduce called for one root after another through the
// same code does that too: in later calls each call's root sends to that
// call's start through these sites. Its pair rounds mix consecutive calls
// into rings, so it never reaches this check: rotating_chain.cpp cuts its
// calls by causality and tells it from a shift by the root's quiet while
// its own chain runs.
#pragma once

#include <cstdint>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::detail {

// msgs: a reduction round's messages (not empty); rootWorld: the candidate
// root. True when the root closes the ring back to a leaf (above).
bool rootClosesShift(const MessageTable &t, const std::vector<uint32_t> &msgs, uint32_t rootWorld);

} // namespace cz::detect::detail
