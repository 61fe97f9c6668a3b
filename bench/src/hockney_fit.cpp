// hockney_fit.cpp: alpha-beta (Hockney) fits of the timings, hockney.csv.
#include "bench/hockney_fit.h"
#include "collectivize/csv.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>

namespace cz::bench {

HockneyFit fitHockney(const std::vector<double> &x, const std::vector<double> &y) {
  HockneyFit fit;
  double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); i++) {
    if (!(y[i] > 0)) continue;
    double w = 1.0 / (y[i] * y[i]);
    s += w, sx += w * x[i], sy += w * y[i];
    sxx += w * x[i] * x[i], sxy += w * x[i] * y[i];
    n++;
  }
  fit.points = n;
  double det = s * sxx - sx * sx;
  // Fewer than two distinct sizes: no line through them is determined.
  if (n < 2 || !(det > 1e-12 * s * sxx)) return fit;
  fit.betaUsPerByte = (s * sxy - sx * sy) / det;
  fit.alphaUs = (sy - fit.betaUsPerByte * sx) / s;
  double mean = sy / s, ssTot = 0, ssRes = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); i++) {
    if (!(y[i] > 0)) continue;
    double w = 1.0 / (y[i] * y[i]);
    double model = fit.alphaUs + fit.betaUsPerByte * x[i];
    ssTot += w * (y[i] - mean) * (y[i] - mean);
    ssRes += w * (y[i] - model) * (y[i] - model);
  }
  fit.r2 = ssTot > 0 ? 1 - ssRes / ssTot : 1;
  fit.valid = true;
  return fit;
}

std::vector<HockneyRow> fitAll(const std::vector<Result> &rows) {
  // std::map keeps the output ordered by collective, procs, algorithm.
  std::map<std::tuple<std::string, int, std::string>,
           std::pair<std::vector<double>, std::vector<double>>> series;
  for (const Result &r : rows) {
    if (!r.ok()) continue;
    auto &xy = series[{r.collective, r.procs, r.algorithm}];
    xy.first.push_back(static_cast<double>(r.bytes));
    xy.second.push_back(r.medianUs);
  }
  std::vector<HockneyRow> out;
  for (auto &[key, xy] : series) {
    HockneyRow h;
    std::tie(h.collective, h.procs, h.algorithm) = key;
    h.fit = fitHockney(xy.first, xy.second);
    out.push_back(h);
  }
  return out;
}

bool writeHockneyCsv(const std::string &path, const std::vector<HockneyRow> &fits,
                     std::string &err) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  std::fprintf(f, "collective,procs,algorithm,points,alpha_us,beta_us_per_byte,gb_per_s,r2\n");
  for (const HockneyRow &h : fits) {
    if (!h.fit.valid) {
      std::fprintf(f, "%s,%d,%s,%d,,,,\n", h.collective.c_str(), h.procs,
                   csv::quote(h.algorithm).c_str(), h.fit.points);
      continue;
    }
    std::fprintf(f, "%s,%d,%s,%d,%.4f,%.6g,%.4f,%.4f\n", h.collective.c_str(), h.procs,
                 csv::quote(h.algorithm).c_str(), h.fit.points, h.fit.alphaUs, h.fit.betaUsPerByte,
                 h.fit.gbPerSecond(), h.fit.r2);
  }
  return std::fclose(f) == 0;
}

}  // namespace cz::bench
