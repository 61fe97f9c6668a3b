// inputs.h: each input of the report read into the page's data (JSON), with
// its status. Private to report/.
#pragma once

#include <string>
#include <vector>

#include "collectivize/html_report.h"
#include "collectivize/json.h"

namespace cz::report {
using json::Json;
using json::parseJson;

// Reads a whole file; false (and why, in `error`) when it cannot.
bool readFile(const std::string &path, std::string &text, std::string &error);

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
