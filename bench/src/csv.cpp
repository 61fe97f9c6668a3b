// csv.cpp: bench.csv, the one file every later step (plots, fits, tune
// --from) reads, so tune can be re-run without measuring again.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "bench/results.h"
#include "collectivize/csv.h"

namespace cz::bench {

const char kCsvHeader[] =
    "collective,procs,bytes,algorithm,iters,reps,median_us,min_us,max_us,"
    "ratio_to_mpi,status,note,dirty_us,makespan_us";

void computeRatios(std::vector<Result> &rows) {
  std::map<std::tuple<std::string, int, long long>, double> mpi;
  for (const Result &r : rows)
    if (r.algorithm == "mpi" && r.ok() && r.medianUs > 0)
      mpi[{r.collective, r.procs, r.bytes}] = r.medianUs;
  for (Result &r : rows) {
    auto it = mpi.find({r.collective, r.procs, r.bytes});
    r.ratioToMpi = r.ok() && it != mpi.end() ? r.medianUs / it->second : 0;
  }
}

// Failed rows leave the timing columns empty: no number for a wrong result.
static std::string num(double v, bool show) {
  if (!show) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

void writeCsv(FILE *out, const std::vector<Result> &rows) {
  std::fprintf(out, "%s\n", kCsvHeader);
  for (const Result &r : rows) {
    std::string ratio;
    if (r.ok() && r.ratioToMpi > 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", r.ratioToMpi);
      ratio = buf;
    }
    std::fprintf(out, "%s,%d,%lld,%s,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s\n", r.collective.c_str(),
                 r.procs, r.bytes, csv::quote(r.algorithm).c_str(), r.iters, r.reps,
                 num(r.medianUs, r.ok()).c_str(), num(r.minUs, r.ok()).c_str(),
                 num(r.maxUs, r.ok()).c_str(), ratio.c_str(), r.status.c_str(),
                 csv::quote(r.note).c_str(), num(r.dirtyUs, r.ok() && r.dirtyUs > 0).c_str(),
                 num(r.makespanUs, r.ok() && r.makespanUs > 0).c_str());
  }
}

bool writeCsvFile(const std::string &path, const std::vector<Result> &rows,
                  std::string &err) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  writeCsv(f, rows);
  if (std::fclose(f) != 0) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool readCsvFile(const std::string &path, std::vector<Result> &rows, std::string &err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = "cannot read " + path + ": " + std::strerror(errno) +
          " (write one with `collectivize bench -o DIR`)";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<csv::CsvLine> lines = csv::readLines(text.str());
  if (lines.empty() || lines[0].number != 1 ||
      !csv::startsWith(lines[0].fields, {"collective", "procs", "bytes", "algorithm"})) {
    err = path + ": not a bench.csv (its first line must be the header '" +
          std::string(kCsvHeader) + "')";
    return false;
  }
  for (size_t k = 1; k < lines.size(); k++) {
    const csv::CsvLine &line = lines[k];
    const std::string where = path + ":" + std::to_string(line.number);
    if (!line.ok) {
      err = path + ": " + line.error.describe();
      return false;
    }
    const std::vector<std::string> &f = line.fields;
    if (f.size() < 11) {
      err = where + ": expected at least 11 fields, got " + std::to_string(f.size());
      return false;
    }
    Result r;
    r.collective = f[0];
    r.procs = std::atoi(f[1].c_str());
    r.bytes = std::atoll(f[2].c_str());
    r.algorithm = f[3];
    r.iters = std::atoi(f[4].c_str());
    r.reps = std::atoi(f[5].c_str());
    r.medianUs = std::atof(f[6].c_str());
    r.minUs = std::atof(f[7].c_str());
    r.maxUs = std::atof(f[8].c_str());
    r.ratioToMpi = std::atof(f[9].c_str());
    r.status = f[10];
    r.note = f.size() > 11 ? f[11] : "";
    r.dirtyUs = f.size() > 12 ? std::atof(f[12].c_str()) : 0;
    r.makespanUs = f.size() > 13 ? std::atof(f[13].c_str()) : 0;
    if (r.procs < 1 || r.algorithm.empty()) {
      err = where + ": bad procs or algorithm";
      return false;
    }
    rows.push_back(r);
  }
  return true;
}

}  // namespace cz::bench
