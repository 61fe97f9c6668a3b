// prediction.cpp: the predicted gain of replacing a hand-made collective by
// the MPI one (prediction.h). Costs below use the Hockney model: a message of
// m bytes takes alpha + beta*m; L = ceil(log2 P). Computation (gamma) is
// left out: reductions' arithmetic is the same in both programs.
#include "prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "collectivize/collective_kinds.h"

namespace cz::report {
namespace {

const HockneyLine *findLine(const std::vector<HockneyLine> &model, const std::string &coll,
                            int procs) {
  for (const HockneyLine &h : model)
    if (h.collective == coll && h.algorithm == "mpi" && h.procs == procs) return &h;
  return nullptr;
}

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

// Textbook costs of the algorithms MPI libraries choose from, cheapest
// first found; `which` names it.
double textbookMicros(const std::string &kind, double p, double m, double a, double b,
                      std::string &which) {
  const double L = std::ceil(std::log2(p));
  auto pick = [&](double x, const char *xn, double y, const char *yn) {
    which = x <= y ? xn : yn;
    return std::min(x, y);
  };
  if (kind == "bcast")
    return pick(L * (a + b * m), "binomial tree: L(α+βm)", (L + p - 1) * a + 2 * (p - 1) / p * b * m,
                "scatter + allgather: (L+P-1)α + 2(P-1)/P·βm");
  if (kind == "scatter" || kind == "gather") {
    which = "binomial tree: Lα + (P-1)βm";
    return L * a + (p - 1) * b * m;
  }
  if (kind == "allgather") {
    which = "recursive doubling or Bruck: Lα + (P-1)βm";
    return L * a + (p - 1) * b * m;
  }
  if (kind == "alltoall")
    return pick(L * a + L * std::ceil(p / 2) * b * m, "Bruck: Lα + L·⌈P/2⌉·βm",
                (p - 1) * (a + b * m), "pairwise: (P-1)(α+βm)");
  if (kind == "reduce" || kind == "allreduce")
    return pick(L * (a + b * m), kind == "reduce" ? "binomial tree: L(α+βm)" : "recursive doubling: L(α+βm)",
                2 * L * a + 2 * (p - 1) / p * b * m, "Rabenseifner: 2Lα + 2(P-1)/P·βm");
  if (kind == "scan" || kind == "exscan") {
    which = "recursive doubling: L(α+βm)";
    return L * (a + b * m);
  }
  if (kind == "barrier") {
    which = "dissemination: Lα";
    return L * a;
  }
  return -1;
}

} // namespace

double predictMpiMicros(const std::string &kind, int procs, double bytes,
                        const std::vector<HockneyLine> &model, std::string &basis) {
  if (procs < 2) {
    basis = "a group of fewer than 2 ranks";
    return -1;
  }
  if (cz::kinds::hasVaryingCounts(kind)) {
    basis = "no model for " + kind + ": its blocks differ in size";
    return -1;
  }
  if (const HockneyLine *h = findLine(model, kind, procs)) {
    basis = "the MPI library's own " + kind + " at P = " + std::to_string(procs) +
            ", fitted by collectivize bench: " + fixed(h->alphaUs, 2) + " µs + " +
            fixed(h->betaUsPerByte * 1e3, 4) + " µs/KB";
    return h->alphaUs + h->betaUsPerByte * bytes;
  }
  // Between two process counts the bench measured: alpha and beta
  // interpolated in P (on an oversubscribed node they grow much faster
  // with P than any textbook cost says).
  const HockneyLine *below = nullptr, *above = nullptr;
  for (const HockneyLine &h : model) {
    if (h.collective != kind || h.algorithm != "mpi") continue;
    if (h.procs < procs && (!below || h.procs > below->procs)) below = &h;
    if (h.procs > procs && (!above || h.procs < above->procs)) above = &h;
  }
  if (below && above) {
    double w = double(procs - below->procs) / double(above->procs - below->procs);
    double a = below->alphaUs + w * (above->alphaUs - below->alphaUs);
    double b = below->betaUsPerByte + w * (above->betaUsPerByte - below->betaUsPerByte);
    basis = "the MPI library's own " + kind + ", fitted by collectivize bench at P = " +
            std::to_string(below->procs) + " and " + std::to_string(above->procs) +
            ", interpolated: " + fixed(a, 2) + " µs + " + fixed(b * 1e3, 4) + " µs/KB";
    return a + b * bytes;
  }
  // One message each way at P = 2: an alltoall (both directions at once)
  // is the closest the bench comes to one point-to-point message; a
  // bcast's root does not wait for its receiver, so back-to-back bcasts
  // understate the latency: the last resort.
  const HockneyLine *p2p = nullptr;
  for (const char *c : {"alltoall", "allgather", "bcast"})
    if (!p2p) p2p = findLine(model, c, 2);
  if (!p2p) {
    basis = "no point-to-point fit (the bench's MPI alltoall, allgather or bcast at P = 2) and "
            "no fit of " + kind + " around P = " + std::to_string(procs);
    return -1;
  }
  std::string which;
  double t = textbookMicros(kind, procs, bytes, p2p->alphaUs, p2p->betaUsPerByte, which);
  if (t < 0) {
    basis = "no model for " + kind;
    return -1;
  }
  basis = which + " with α = " + fixed(p2p->alphaUs, 2) + " µs, β = " +
          fixed(p2p->betaUsPerByte * 1e3, 4) + " µs/KB (one message: the bench's MPI " +
          p2p->collective + " at P = 2)";
  return t;
}

std::vector<HockneyLine> loadHockney(const std::string &path, InputStatus &status) {
  status.name = "Hockney model";
  status.path = path;
  std::vector<HockneyLine> out;
  if (path.empty()) {
    status.status = "not given";
    status.message = "no hockney.csv beside --bench and no --model FILE: gains are not predicted";
    return out;
  }
  SkippedLines skipped;
  auto row = [&out](const std::vector<std::string> &f) {
    if (f.size() < 6) return false;
    if (f[4].empty() || f[5].empty()) return true; // a fit that was not valid: no model
    char *e1 = nullptr, *e2 = nullptr, *e3 = nullptr;
    HockneyLine h;
    h.collective = f[0];
    h.algorithm = f[2];
    h.procs = int(std::strtol(f[1].c_str(), &e1, 10));
    h.alphaUs = std::strtod(f[4].c_str(), &e2);
    h.betaUsPerByte = std::strtod(f[5].c_str(), &e3);
    if (*e1 || *e2 || *e3 || h.procs < 1 || !std::isfinite(h.alphaUs) ||
        !std::isfinite(h.betaUsPerByte))
      return false;
    out.push_back(h);
    return true;
  };
  if (!readCsvRows(path, {"collective", "procs", "algorithm", "points", "alpha_us", "beta_us_per_byte"},
                   "a hockney.csv of `collectivize bench`", status, row, skipped))
    return out;
  setCsvStatus(status, std::to_string(out.size()) + " fits", skipped);
  return out;
}

Json predictGains(const Json &detection, const std::vector<HockneyLine> &model) {
  Json out = Json::array();
  if (!detection["matches"].isArray()) return out;
  for (const Json &m : detection["matches"].items()) {
    Json p = Json::object();
    const Json &cp = m["critical_path"];
    const double instances = cp.num("instances", 0), seconds = cp.num("seconds", 0);
    const int procs = m["ranks"].isArray() ? int(m["ranks"].size()) : 0;
    std::string basis;
    if (model.empty()) {
      p.set("none", Json::string("no Hockney model (hockney.csv of `collectivize bench`)"));
    } else if (!cp.isObject() || instances < 1 || seconds <= 0) {
      p.set("none", Json::string("no measured critical path in the detection report"));
    } else {
      double mpi = predictMpiMicros(m.str("kind"), procs, m.num("call_bytes", 0), model, basis);
      if (mpi < 0) {
        p.set("none", Json::string(basis));
      } else {
        const double manual = seconds / instances * 1e6;
        p.set("manual_us", Json::number(manual));
        p.set("mpi_us", Json::number(mpi));
        p.set("instances", Json::number(instances));
        p.set("gain_seconds", Json::number(std::max(0.0, (manual - mpi) * instances * 1e-6)));
        p.set("basis", Json::string(basis));
      }
    }
    out.push(std::move(p));
  }
  return out;
}

} // namespace cz::report
