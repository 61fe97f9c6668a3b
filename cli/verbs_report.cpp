// verbs_report.cpp: `collectivize report`: the HTML review report.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "collectivize/html_report.h"
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

} // namespace

int reportVerb(int argc, char **argv) {
  cz::report::ReportOptions o;
  std::string out;
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--no-trace") {
      o.readTrace = false;
      continue;
    }
    if (a == "-o" || a == "--patches" || a == "--trace" || a == "--sites" || a == "--root" ||
        a == "--bench" || a == "--model" || a == "--table" || a == "--max-messages") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "collectivize report: %s needs a value\n%s", a.c_str(), kUsage);
        return 2;
      }
      std::string v = argv[++i];
      if (a == "-o") out = v;
      else if (a == "--patches") o.patchDir = v;
      else if (a == "--trace") o.traceDir = v;
      else if (a == "--sites") o.sitesPath = v;
      else if (a == "--root") o.projectRoot = v;
      else if (a == "--bench") o.benchCsv = v;
      else if (a == "--model") o.hockneyCsv = v;
      else if (a == "--table") o.decisionTable = v;
      else {
        char *end = nullptr;
        long n = std::strtol(v.c_str(), &end, 10);
        if (end == v.c_str() || *end || n < 1 || n > 100000) {
          std::fprintf(stderr, "collectivize report: --max-messages wants 1..100000 (got '%s')\n",
                       v.c_str());
          return 2;
        }
        o.timelineMessages = int(n);
      }
      continue;
    }
    if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "collectivize report: unknown option '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
    if (!o.detection.empty()) {
      std::fprintf(stderr, "collectivize report: one detection report at a time ('%s' and '%s')\n",
                   o.detection.c_str(), a.c_str());
      return 2;
    }
    o.detection = a;
  }
  if (out.empty()) {
    std::fprintf(stderr, "collectivize report: where to write the page? (-o REPORT.html)\n%s",
                 kUsage);
    return 2;
  }
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
