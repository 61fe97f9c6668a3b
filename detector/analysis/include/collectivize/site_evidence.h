// site_evidence.h: what the source says about a match, from the site
// database (the detector reads the file, never Clang).
#pragma once

#include "collectivize/detect.h"
#include "collectivize/report.h"

namespace cz::detect {

// A direct exchange with every member (alltoall, allgather: Match::direct)
// whose send sites take their peers from a neighbour list, left/right
// variables or a function's result, never from a loop over ranks, is a
// neighbourhood exchange that reaches everyone only because few ranks ran:
// it becomes ambiguous (Unproven kNeighbourhood) with a note naming the
// peer arguments. A gather or exchange whose member received blocks from
// several senders into several places through a receive from
// MPI_ANY_SOURCE (Match::receivesFromSeveral) placed them in arrival
// order: ambiguous (Unproven kArrivalOrder), the note naming the receives.
// Matches without instrumenter sites are left as they are.
void weighSiteEvidence(Report &report, const SiteLocations &sites);

} // namespace cz::detect
