// timing.cpp: see timing.h.
#include "timing.h"

#include <algorithm>

namespace cz::verify {

TimingSummary summarizeTimes(const std::vector<double> &seconds) {
  TimingSummary s;
  s.seconds = seconds;
  if (seconds.empty()) return s;
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  s.min = sorted.front();
  s.max = sorted.back();
  return s;
}

double speedup(const TimingSummary &original, const TimingSummary &patched) {
  if (original.median <= 0 || patched.median <= 0) return 0;
  return original.median / patched.median;
}

} // namespace cz::verify
