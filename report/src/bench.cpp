// bench.cpp: the CSV `collectivize bench` writes (bench/README.md):
// collective,procs,bytes,algorithm,iters,reps,median_us,min_us,max_us,
// ratio_to_mpi,status,note. Rows that do not parse are counted and skipped.
#include <cstdlib>

#include "inputs.h"

namespace cz::report {

Json loadBench(const std::string &path, InputStatus &status) {
  status.name = "benchmark CSV";
  status.path = path;
  if (path.empty()) {
    status.status = "not given";
    status.message = "no --bench FILE (`collectivize bench -o DIR` writes DIR/bench.csv)";
    return Json();
  }
  Json rows = Json::array();
  SkippedLines skipped;
  auto row = [&rows](const std::vector<std::string> &f) {
    if (f.size() < 9) return false;
    char *e1 = nullptr, *e2 = nullptr, *e3 = nullptr;
    double procs = std::strtod(f[1].c_str(), &e1), bytes = std::strtod(f[2].c_str(), &e2),
           median = std::strtod(f[6].c_str(), &e3);
    if (*e1 || *e2 || *e3 || f[6].empty()) return false;
    Json r = Json::array();
    r.push(Json::string(f[0]));
    r.push(Json::number(procs));
    r.push(Json::number(bytes));
    r.push(Json::string(f[3]));
    r.push(Json::number(median));
    r.push(Json::number(std::strtod(f[7].c_str(), nullptr)));
    r.push(Json::number(std::strtod(f[8].c_str(), nullptr)));
    r.push(Json::string(f.size() > 10 ? f[10] : "ok"));
    rows.push(std::move(r));
    return true;
  };
  if (!readCsvRows(path, {"collective", "procs", "bytes", "algorithm"}, "a `collectivize bench` CSV",
                   status, row, skipped))
    return Json();
  Json out = Json::object();
  out.set("columns", Json::string("collective,procs,bytes,algorithm,median_us,min_us,max_us,status"));
  out.set("rows", std::move(rows));
  setCsvStatus(status, std::to_string(out["rows"].size()) + " measurements", skipped);
  if (out["rows"].size() == 0 && !skipped.count) {
    status.status = "partial";
    status.message = "the CSV has a header but no measurements";
  }
  return out;
}

} // namespace cz::report
