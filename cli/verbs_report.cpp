// verbs_report.cpp: `collectivize report`: the HTML review report.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "collectivize/html_report.h"
#include "collectivize/verb_options.h"
#include "verbs.h"

namespace cz::cli {
namespace {

const char kUsage[] =
    "usage: collectivize report [REPORT.json] [--patches DIR] [--trace DIR] [--sites FILE]\n"
    "                           [--root DIR] [--bench FILE.csv] [--model FILE.csv] [--table FILE]\n"
    "                           [--no-trace] [--max-messages N] -o REPORT.html\n\n"
    "Writes one self-contained HTML page (no server, no network) for review and\n"
    "teaching: every detected hand-made collective (kind, group, instances, time,\n"
    "verdict, gain) with its source, timeline, communication graph, matrix and\n"
    "patch; an explorer that steps through the runtime's alltoall and allgather\n"
    "algorithms; the decision table and benchmark plots.\n\n"
    "  REPORT.json     `collectivize detect ... -o REPORT.json`\n"
    "  --patches DIR   `collectivize rewrite` output with `collectivize verify` results\n"
    "  --trace DIR     the trace, for timelines (default: the one the report names)\n"
    "  --sites FILE    site database, to find sources (default: the report's)\n"
    "  --root DIR      project root the sources' paths are relative to\n"
    "  --bench FILE    bench.csv from `collectivize bench -o DIR`\n"
    "  --model FILE    hockney.csv from the same run (default: the one beside --bench):\n"
    "                  each match's gain is predicted from this machine's fitted\n"
    "                  alpha and beta, labelled as a prediction beside the measured one\n"
    "  --table FILE    decision table (default: the built-in one)\n"
    "  --no-trace      leave the timelines out (the trace is not read: faster for\n"
    "                  long traces, or when the trace is gone)\n"
    "  --max-messages N  timeline messages per match (default 240)\n"
    "  -o REPORT.html  where the page goes (never one of the inputs)\n"
    "Every input is optional; whatever is missing or malformed is named on the page.\n"
    "Exit status: 0 page written; 1 it could not be written, or an input given\n"
    "could not be used (missing or malformed: the page is written all the same and\n"
    "says which); 2 bad usage.\n";

// report's command line (kUsage describes it).
std::optional<int> parseReportArgs(int argc, char **argv, cz::report::ReportOptions &o,
                                   std::string &out) {
  cz::options::VerbParser parser("collectivize report", kUsage);
  CLI::App &app = parser.app();
  std::vector<std::string> detection;
  app.add_option("REPORT.json", detection);
  app.add_option("-o", out);
  app.add_option("--patches", o.patchDir);
  app.add_option("--trace", o.traceDir);
  app.add_option("--sites", o.sitesPath);
  app.add_option("--root", o.projectRoot);
  app.add_option("--bench", o.benchCsv);
  app.add_option("--model", o.hockneyCsv);
  app.add_option("--table", o.decisionTable);
  app.add_flag("--no-trace", [&](int64_t) { o.readTrace = false; });
  long long n = 0;
  cz::options::addChecked(app, "--max-messages",
                          [&](const std::string &v) {
                            return cz::options::parseWhole(v, 1, 100000, n) &&
                                   (o.timelineMessages = int(n), true);
                          },
                          "wants 1..100000", "N");
  if (auto status = parser.parse(cz::options::argsOf(argc, argv))) return status;
  if (detection.size() > 1)
    return parser.usageError("one detection report at a time ('" + detection[0] + "' and '" +
                             detection[1] + "')");
  if (!detection.empty()) o.detection = detection[0];
  if (out.empty()) return parser.usageError("where to write the page? (-o REPORT.html)");
  return std::nullopt;
}

} // namespace

int reportVerb(int argc, char **argv) {
  cz::report::ReportOptions o;
  std::string out;
  if (auto status = parseReportArgs(argc, argv, o, out)) return *status;
  // The page must never replace one of its own inputs (`-o x.json` once
  // overwrote the detection report with HTML).
  for (const std::string *in : {&o.detection, &o.benchCsv, &o.hockneyCsv, &o.decisionTable,
                                &o.sitesPath}) {
    std::error_code ec;
    if (!in->empty() && std::filesystem::equivalent(*in, out, ec)) {
      std::fprintf(stderr,
                   "collectivize report: -o %s is one of the inputs: write the page to another "
                   "file (e.g. report.html)\n",
                   out.c_str());
      return 2;
    }
  }
  std::vector<cz::report::InputStatus> statuses;
  std::string html = cz::report::buildReportHtml(o, statuses);
  std::ofstream f(out, std::ios::trunc | std::ios::binary);
  if (!f || !(f << html) || (f.close(), !f)) {
    std::fprintf(stderr, "collectivize report: cannot write %s: %s\n", out.c_str(),
                 std::strerror(errno));
    return 1;
  }
  for (const auto &s : statuses)
    if (s.status != "ok")
      std::fprintf(stderr, "collectivize report: %s: %s%s%s\n", s.name.c_str(), s.status.c_str(),
                   s.message.empty() ? "" : ": ", s.message.c_str());
  std::printf("report written to %s (%zu KB)\n", out.c_str(), html.size() / 1024);
  std::fflush(stdout);
  // An input that was named but could not be used fails the command (the
  // page is written all the same, saying which): scripts notice.
  size_t unusable = 0;
  for (const auto &s : statuses) unusable += s.status == "missing" || s.status == "malformed";
  if (unusable) {
    std::fprintf(stderr, "collectivize report: %zu of the inputs given could not be used (above)\n",
                 unusable);
    return 1;
  }
  return 0;
}

} // namespace cz::cli
