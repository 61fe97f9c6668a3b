// svg_plot.cpp: hand-written SVG so the benchmark needs no plotting package.
// Log-log axes: message sizes are powers of two and times span decades.
#include "bench/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "bench/options.h"

namespace cz::bench {

std::string plotFileName(const std::string &collective, int procs) {
  return "bench-" + collective + "-p" + std::to_string(procs) + ".svg";
}

namespace {

const int kWidth = 820, kHeight = 500;
const int kLeft = 80, kRight = 190, kTop = 40, kBottom = 60;
const char *const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                               "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

std::string fmt(const char *f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

std::string escape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string timeLabel(double us) {
  if (us >= 1e6) return fmt("%g s", us / 1e6);
  if (us >= 1e3) return fmt("%g ms", us / 1e3);
  return fmt("%g us", us);
}

}  // namespace

std::string renderPlot(const std::vector<Result> &rows, const std::string &collective,
                       int procs) {
  // Series in the order algorithms first appear; mpi drawn last (on top).
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<double, double>>> series;
  for (const Result &r : rows) {
    if (r.collective != collective || r.procs != procs || !r.ok() || r.medianUs <= 0) continue;
    if (!series.count(r.algorithm)) order.push_back(r.algorithm);
    series[r.algorithm].push_back({double(r.bytes), r.medianUs});
  }
  std::stable_partition(order.begin(), order.end(), [](const std::string &a) { return a != "mpi"; });

  std::string title = collective + ", " + std::to_string(procs) + " processes";
  std::string xLabel = collective == "bcast" || collective == "allreduce" ? "message size (bytes)" : "bytes per block";
  std::string svg = fmt("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
                        "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"12\">\n",
                        kWidth, kHeight, kWidth, kHeight);
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += fmt("<text x=\"%g\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">", (kLeft + kWidth - kRight) / 2.0) +
         escape(title) + "</text>\n";
  if (series.empty()) {
    svg += fmt("<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">no successful measurements</text>\n",
               kWidth / 2.0, kHeight / 2.0);
    return svg + "</svg>\n";
  }

  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  for (auto &[name, pts] : series)
    for (auto &[x, y] : pts) {
      xmin = std::min(xmin, x), xmax = std::max(xmax, x);
      ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
  double lx0 = std::floor(std::log2(xmin)), lx1 = std::ceil(std::log2(xmax));
  if (lx1 <= lx0) lx0 -= 1, lx1 += 1;
  double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax));
  if (ly1 <= ly0) ly1 = ly0 + 1;
  double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (std::log2(x) - lx0) / (lx1 - lx0) * pw; };
  auto py = [&](double y) { return kTop + ph - (std::log10(y) - ly0) / (ly1 - ly0) * ph; };

  // Grid and ticks: every power of two on x (labels thinned), decades on y.
  int xSteps = int(lx1 - lx0), labelEvery = xSteps > 24 ? 4 : xSteps > 12 ? 2 : 1;
  for (int i = 0; i <= xSteps; i++) {
    double x = std::ldexp(1.0, int(lx0) + i), X = px(x);
    svg += fmt("<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#e0e0e0\"/>\n", X, kTop, X, kTop + ph);
    if (i % labelEvery == 0)
      svg += fmt("<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">", X, kTop + ph + 18) +
             formatBytes((long long)x) + "</text>\n";
  }
  for (int d = int(ly0); d <= int(ly1); d++) {
    double Y = py(std::pow(10.0, d));
    svg += fmt("<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", kLeft, Y, kLeft + pw, Y);
    svg += fmt("<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">", kLeft - 6, Y + 4) +
           timeLabel(std::pow(10.0, d)) + "</text>\n";
  }
  svg += fmt("<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n",
             kLeft, kTop, pw, ph);
  svg += fmt("<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", kLeft + pw / 2, kHeight - 15.0) +
         xLabel + "</text>\n";
  svg += fmt("<text transform=\"translate(18,%g) rotate(-90)\" text-anchor=\"middle\">"
             "time per call (median over reps)</text>\n", kTop + ph / 2);

  int index = 0;
  for (const std::string &name : order) {
    auto pts = series[name];
    std::sort(pts.begin(), pts.end());
    bool isMpi = name == "mpi";
    std::string color = isMpi ? "black" : kColors[index++ % 10];
    std::string width = isMpi ? "2.5" : "1.6";
    std::string path;
    for (auto &[x, y] : pts) path += fmt("%.1f,%.1f ", px(x), py(y));
    svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" + width + "\"" +
           (isMpi ? " stroke-dasharray=\"6,3\"" : "") + " points=\"" + path + "\"/>\n";
    for (auto &[x, y] : pts)
      svg += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" ", px(x), py(y)) + "fill=\"" + color + "\"/>\n";
    // Legend entry, in drawing order (mpi last).
    int li = int(&name - &order[0]);
    double ly = kTop + 10 + li * 20.0, lx = kLeft + pw + 15;
    svg += fmt("<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" ", lx, ly, lx + 24, ly) + "stroke=\"" +
           color + "\" stroke-width=\"" + width + "\"" + (isMpi ? " stroke-dasharray=\"6,3\"" : "") + "/>\n";
    svg += fmt("<text x=\"%g\" y=\"%g\">", lx + 30, ly + 4) +
           escape(isMpi ? "mpi (MPI library)" : name) + "</text>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace cz::bench
