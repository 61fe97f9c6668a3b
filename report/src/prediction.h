// prediction.h: what an MPI collective would cost in place of a hand-made
// one, from this machine's Hockney model (t = alpha + beta * bytes, fitted by
// `collectivize bench`, hockney.csv), beside the hand-made pattern's measured
// critical path. A prediction, labelled as one on the page: the measured
// speedup of a verified patch is the evidence. Private to report/.
#pragma once

#include <string>
#include <vector>

#include "inputs.h"

namespace cz::report {

struct HockneyLine {
  std::string collective, algorithm;
  int procs = 0;
  double alphaUs = 0, betaUsPerByte = 0;
};

// What an MPI collective of `kind` ("bcast", "gather", ...) over `procs`
// ranks moving `bytes` (as its count describes them: the whole buffer for
// bcast, reduce and allreduce; one member's block for scatter, gather,
// allgather and alltoall) is predicted to take, in microseconds.
// From the library's own fit of that collective at that P when the bench
// measured it, or interpolated between two P it measured around it; else
// from point-to-point alpha and beta (the MPI alltoall fit at P = 2: one
// message each way) and the textbook cost of the algorithms libraries
// pick (binomial trees, recursive doubling, Bruck, pairwise, Rabenseifner),
// the cheapest of them. `basis` says which; < 0 when there is no model
// (v-forms, no fit), and `basis` says why.
double predictMpiMicros(const std::string &kind, int procs, double bytes,
                        const std::vector<HockneyLine> &model, std::string &basis);

// hockney.csv rows (bench/README.md). Status "ok", "partial", "missing",
// "malformed" or "not given".
std::vector<HockneyLine> loadHockney(const std::string &path, InputStatus &status);

// Per match of the detection report: {"manual_us": mean critical path per
// timed instance, "mpi_us", "instances", "gain_seconds": (manual - mpi) x
// instances, at least 0, "basis"}, or {"none": why}. An array in match order.
Json predictGains(const Json &detection, const std::vector<HockneyLine> &model);

} // namespace cz::report
