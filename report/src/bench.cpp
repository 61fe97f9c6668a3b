// bench.cpp: the CSV `collectivize bench` writes (bench/README.md):
// collective,procs,bytes,algorithm,iters,reps,median_us,min_us,max_us,
// ratio_to_mpi,status,note. Rows that do not parse are counted and skipped.
#include <cstdlib>

#include "collectivize/csv.h"
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
  std::string text, error;
  if (!readFile(path, text, error)) {
    status.status = "missing";
    status.message = error;
    return Json();
  }
  std::vector<csv::CsvLine> lines = csv::readLines(text);
  if (lines.empty() || lines[0].number != 1 ||
      !csv::startsWith(lines[0].fields, {"collective", "procs", "bytes", "algorithm"})) {
    status.status = "malformed";
    status.message = path + ": not a `collectivize bench` CSV (first line: '" +
                     (lines.empty() || lines[0].number != 1 ? "" : lines[0].text.substr(0, 80)) +
                     "')";
    return Json();
  }
  Json rows = Json::array();
  size_t bad = 0;
  std::string firstBad; // where the first line that does not parse fails
  for (size_t k = 1; k < lines.size(); k++) {
    if (!lines[k].ok) {
      if (!bad++) firstBad = lines[k].error.describe();
      continue;
    }
    const std::vector<std::string> &f = lines[k].fields;
    char *e1 = nullptr, *e2 = nullptr, *e3 = nullptr;
    if (f.size() < 9) {
      bad++;
      continue;
    }
    double procs = std::strtod(f[1].c_str(), &e1), bytes = std::strtod(f[2].c_str(), &e2),
           median = std::strtod(f[6].c_str(), &e3);
    if (*e1 || *e2 || *e3 || f[6].empty()) {
      bad++;
      continue;
    }
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
  }
  Json out = Json::object();
  out.set("columns", Json::string("collective,procs,bytes,algorithm,median_us,min_us,max_us,status"));
  out.set("rows", std::move(rows));
  status.status = bad ? "partial" : "ok";
  status.message = std::to_string(out["rows"].size()) + " measurements";
  if (bad) status.message += "; " + std::to_string(bad) + " lines that do not parse were skipped";
  if (!firstBad.empty()) status.message += " (the first: " + firstBad + ")";
  if (out["rows"].size() == 0 && !bad) {
    status.status = "partial";
    status.message = "the CSV has a header but no measurements";
  }
  return out;
}

} // namespace cz::report
