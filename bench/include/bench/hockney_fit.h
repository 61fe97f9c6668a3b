// hockney_fit.h: the Hockney model t = alpha + beta * bytes, fitted by least
// squares to one algorithm's timings.
#pragma once

#include <string>
#include <vector>

#include "bench/results.h"

namespace cz::bench {

struct HockneyFit {
  double alphaUs = 0;        // latency term (microseconds)
  double betaUsPerByte = 0;  // inverse bandwidth (microseconds per byte)
  double r2 = 0;             // coefficient of determination of the fit
  int points = 0;
  bool valid = false;        // needs >= 2 distinct sizes
  double gbPerSecond() const { return betaUsPerByte > 0 ? 1e-3 / betaUsPerByte : 0; }
};

// Least squares weighted by 1/t^2, i.e. minimising the *relative* error:
// timings span several decades, and plain least squares would let the
// largest size alone decide alpha (often making it negative). r2 is computed
// in the same weighted metric.
HockneyFit fitHockney(const std::vector<double> &bytes,
                      const std::vector<double> &timesUs);

struct HockneyRow {
  std::string collective, algorithm;
  int procs = 0;
  HockneyFit fit;
};
// One fit per (collective, procs, algorithm) over its ok rows.
std::vector<HockneyRow> fitAll(const std::vector<Result> &rows);
bool writeHockneyCsv(const std::string &path, const std::vector<HockneyRow> &fits,
                     std::string &err);

}  // namespace cz::bench
