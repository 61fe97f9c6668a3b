// timing.h: wall times of repeated runs, summarized by median, min, max
// (the median because one run in five on a shared machine is an outlier).
#pragma once

#include <vector>

namespace cz::verify {

struct TimingSummary {
  std::vector<double> seconds; // in run order
  double median = 0, min = 0, max = 0;
};

TimingSummary summarizeTimes(const std::vector<double> &seconds);

// original median / patched median; 0 when either is unknown or zero.
double speedup(const TimingSummary &original, const TimingSummary &patched);

} // namespace cz::verify
