// html_report.h: `collectivize report`: one self-contained HTML page (no
// server, no network) from a detection report, a patch directory with its
// verification results, the trace, benchmark CSV and a decision table.
// Every input is optional: what is missing or malformed is named on the
// page, and the rest still renders.
#pragma once

#include <string>
#include <vector>

namespace cz::report {

struct ReportOptions {
  std::string detection;     // REPORT.json (detector/REPORT_FORMAT.md)
  std::string patchDir;      // PATCH_DIR (rewriter/PATCH_FORMAT.md)
  std::string traceDir;      // for the timelines; "" = the report's "trace"
  std::string sitesPath;     // "" = the report's "sites"
  std::string projectRoot;   // sources; "" = patches.json's project_root
  std::string benchCsv;      // `collectivize bench` bench.csv
  std::string hockneyCsv;    // its hockney.csv; "" = the one beside benchCsv, if any
  std::string decisionTable; // "" = the runtime's built-in table
  bool readTrace = true;
  int timelineMessages = 240; // per match, of the match and of other traffic each
};

struct InputStatus {
  std::string name, path;
  std::string status; // "ok", "missing", "malformed", "not given", "partial"
  std::string message;
};

// Builds the page. `statuses` says what each input gave (also on the page).
std::string buildReportHtml(const ReportOptions &options, std::vector<InputStatus> &statuses);

} // namespace cz::report
