// interleaved_instances.h: instances of one finding that overlap at a rank.
//
// Consecutive calls of one collective are ordered at every process: a rank
// finishes its part of one call (its sends posted, its receives completed)
// before it starts its part of the next. So the instances one finding
// stands for (same kind, communicator, group, root and call sites) must
// not interleave at any rank. When they do, the messages are one loop that
// serves several "instances" in turn: a ping-pong client that sends stamp
// i to every server, each server in turn, sends server 1 all its stamps
// before server 2 gets the first; an allgather read from round k of such a
// loop is none one call could stand for (or two interleaved ones, which a
// rewrite must take apart by hand). Such a finding is unproven
// (kInterleaved), never confirmed. Asked of kinds without a root only: a
// broadcast pipelined in pieces interleaves at its relays by design.
#pragma once

#include <cstdint>
#include <vector>

#include "detect_internal.h"

namespace cz::detect::detail {

// Whether two of `instances` (each standing for one occurrence) overlap in
// the events of a rank: the first such rank in `rank`.
bool instancesInterleave(const MessageTable &t, const std::vector<const Instance *> &instances,
                         uint32_t &rank);

} // namespace cz::detect::detail
