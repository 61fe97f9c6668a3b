// svg_plot.h: a log-log line plot (time vs bytes, one line per algorithm),
// written as plain SVG text.
#pragma once

#include <string>
#include <vector>

#include "bench/results.h"

namespace cz::bench {

// SVG for the ok rows of one (collective, procs) cell.
std::string renderPlot(const std::vector<Result> &rows,
                       const std::string &collective, int procs);
// "bench-alltoall-p4.svg"
std::string plotFileName(const std::string &collective, int procs);

}  // namespace cz::bench
