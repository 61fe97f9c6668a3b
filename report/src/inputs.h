// inputs.h: each input of the report read into the page's data (JSON), with
// its status. Private to report/.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "collectivize/html_report.h"
#include "collectivize/json.h"

namespace cz::report {
using json::Json;
using json::parseJson;

// Reads a whole file; false (and why, in `error`) when it cannot.
bool readFile(const std::string &path, std::string &text, std::string &error);

// The lines of a CSV input that were skipped: how many, and where the first
// that is not CSV fails ("line L, column C: ...", empty when every skipped
// line was CSV that its reader could not use).
struct SkippedLines {
  size_t count = 0;
  std::string first;
};

// The CSV file `path` (what `collectivize bench` writes), whose first line
// must start with `header`; else status "missing" or "malformed" ("PATH: not
// WHAT (first line: '...')") and false. Every later line that is CSV goes to
// `row`, which returns false for a line it cannot use (a line it passes over
// on purpose returns true); those and the lines that are not CSV are counted
// in `skipped`.
bool readCsvRows(const std::string &path, const std::vector<std::string> &header,
                 const std::string &what, InputStatus &status,
                 const std::function<bool(const std::vector<std::string> &)> &row,
                 SkippedLines &skipped);

// status "partial" when lines were skipped, else "ok"; message: `kept`
// ("12 measurements"), then how many lines were skipped and the first's
// problem.
void setCsvStatus(InputStatus &status, const std::string &kept, const SkippedLines &skipped);

// A JSON input with the expected "format" and a version we understand.
// status.status becomes "ok", "missing" or "malformed".
Json loadVersioned(const std::string &path, const std::string &format, InputStatus &status);

// patches.json plus every patch's diff, rationale and NN-KIND.verify.json.
Json loadPatches(const std::string &dir, std::vector<InputStatus> &statuses);

// Source windows around each match's call sites (per match, per file).
Json loadSources(const Json &detection, const Json &patches, const ReportOptions &options,
                 std::vector<InputStatus> &statuses);

// Per match, a bounded sample of its messages and of the other traffic.
Json loadTimelines(const Json &detection, const std::string &traceDir, int cap,
                   InputStatus &status);

// The decision table as a grid (procs x bytes -> algorithm) per collective.
Json loadDecision(const std::string &tablePath, InputStatus &status);

// bench.csv rows.
Json loadBench(const std::string &path, InputStatus &status);

} // namespace cz::report
