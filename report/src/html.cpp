// html.cpp: reads every input (inputs.h) into one data object and writes
// the page: static HTML that already says what each input gave (readable
// without scripts), the data as JSON, and the compiled-in scripts that draw
// the overview, the matches, the explorer and the decision view from it.
#include <ctime>
#include <filesystem>

#include "collectivize/html_report.h"
#include "inputs.h"
#include "prediction.h"
#include "web_assets.h"

namespace fs = std::filesystem;

namespace cz::report {
namespace {

std::string escapeHtml(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

// A script's text must not close its <script> element early.
std::string scriptSafe(std::string s) {
  for (size_t p = 0; (p = s.find("</", p)) != std::string::npos; p += 3) s.replace(p, 2, "<\\/");
  return s;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

std::string staticInputs(const std::vector<InputStatus> &statuses) {
  std::string h = "<table class=\"inputs\"><caption>What this report was made from</caption>"
                  "<thead><tr><th scope=\"col\">Input</th><th scope=\"col\">State</th>"
                  "<th scope=\"col\">File</th><th scope=\"col\">Details</th></tr></thead><tbody>";
  for (const auto &s : statuses) {
    std::string mark = s.status == "ok" ? "&#10003; " : s.status == "partial" ? "&#9680; " : "&#10007; ";
    h += "<tr class=\"st-" + escapeHtml(s.status == "not given" ? "notgiven" : s.status) +
         "\"><td>" + escapeHtml(s.name) + "</td><td>" + mark + escapeHtml(s.status) +
         "</td><td><code>" + escapeHtml(s.path) + "</code></td><td>" + escapeHtml(s.message) +
         "</td></tr>";
  }
  return h + "</tbody></table>";
}

// Without scripts the overview is still a list of what was found.
std::string staticOverview(const Json &detection) {
  if (detection.isNull()) return "<p class=\"missing\">No detection report: no matches to show.</p>";
  std::string h = "<ol class=\"static-matches\">";
  for (const Json &m : detection["matches"].items())
    h += "<li>" + escapeHtml(m["kind"].str()) + " (" + escapeHtml(m["status"].str()) + ") on " +
         std::to_string(m["ranks"].size()) + " ranks, " + m["instances"].text() +
         " instances</li>";
  return h + "</ol>";
}

// Fields a match must have with the type REPORT_FORMAT.md gives, named for
// the first few matches that lack them.
std::string oddMatchFields(const Json &matches) {
  std::string out;
  int named = 0;
  for (size_t i = 0; i < matches.size() && named < 5; ++i) {
    const Json &m = matches.items()[i];
    std::string bad;
    if (!m["kind"].isString()) bad += " kind";
    if (!m["ranks"].isArray()) bad += " ranks";
    if (!m["sites"].isArray()) bad += " sites";
    if (!m["instances"].isNumber()) bad += " instances";
    if (!m["messages"].isNumber()) bad += " messages";
    if (bad.empty()) continue;
    out += (named++ ? "; " : "") + std::string("match ") + std::to_string(i + 1) + " lacks" + bad;
  }
  return out;
}

} // namespace

std::string buildReportHtml(const ReportOptions &options, std::vector<InputStatus> &statuses) {
  Json data = Json::object();
  data.set("format", Json::string("collectivize-report-data"));
  data.set("version", Json::number(1));
  data.set("generated", Json::string(utcNow()));

  InputStatus det{"detection report", options.detection, "not given", ""};
  Json detection;
  if (options.detection.empty()) {
    det.message = "no detection report given (`collectivize detect TRACE -o report.json`)";
  } else {
    detection = loadVersioned(options.detection, "collectivize-detection", det);
    if (!detection.isNull()) {
      if (!detection["matches"].isArray()) {
        det.status = "partial";
        det.message = "\"matches\" is missing or not a list";
        detection.set("matches", Json::array());
      } else {
        det.message = std::to_string(detection["matches"].size()) + " matches, " +
                      detection["ranks"].text() + " ranks";
        std::string odd = oddMatchFields(detection["matches"]);
        if (!odd.empty()) {
          det.status = "partial";
          det.message += "; " + odd + " (shown as unknown)";
        }
      }
    }
  }
  statuses.push_back(det);
  data.set("detection", detection);

  Json patches = loadPatches(options.patchDir, statuses);
  data.set("patches", patches);
  data.set("sources", loadSources(detection, patches, options, statuses));

  std::string traceDir = options.traceDir;
  if (traceDir.empty() && detection["trace"].isString() && options.readTrace) {
    // The report names the trace as detect was given it: relative to where
    // detect ran, which is most often beside the report or the cwd.
    fs::path t = detection["trace"].str();
    std::error_code ec;
    if (t.is_relative() && !fs::exists(t, ec))
      t = fs::absolute(options.detection).parent_path() / t;
    traceDir = t.string();
  }
  InputStatus tl;
  if (!options.readTrace) {
    tl = {"trace (timelines)", "", "not given", "--no-trace: timelines left out"};
    data.set("timelines", Json::array());
  } else {
    data.set("timelines", loadTimelines(detection, traceDir, options.timelineMessages, tl));
  }
  statuses.push_back(tl);

  InputStatus bench;
  data.set("bench", loadBench(options.benchCsv, bench));
  statuses.push_back(bench);
  std::string hockney = options.hockneyCsv;
  if (hockney.empty() && !options.benchCsv.empty()) {
    std::error_code ec;
    fs::path beside = fs::path(options.benchCsv).parent_path() / "hockney.csv";
    if (fs::exists(beside, ec)) hockney = beside.string();
  }
  InputStatus model;
  data.set("predictions", predictGains(detection, loadHockney(hockney, model)));
  statuses.push_back(model);
  InputStatus table;
  data.set("decision", loadDecision(options.decisionTable, table));
  statuses.push_back(table);

  Json inputs = Json::array();
  for (const auto &s : statuses) {
    Json i = Json::object();
    i.set("name", Json::string(s.name));
    i.set("path", Json::string(s.path));
    i.set("status", Json::string(s.status));
    i.set("message", Json::string(s.message));
    inputs.push(std::move(i));
  }
  data.set("inputs", std::move(inputs));

  std::string h;
  h.reserve(1 << 20);
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<title>Collectivize review report</title>\n<style>\n";
  h += webAsset("report.css");
  h += "</style>\n</head>\n<body>\n<header class=\"top\"><h1>Collectivize review report</h1>"
       "<p class=\"sub\">Generated " + utcNow();
  if (detection["command"].isString())
    h += " &middot; traced command <code>" + escapeHtml(detection["command"].str()) + "</code>";
  h += "</p><nav aria-label=\"Sections\"><a href=\"#overview\">Overview</a> <a href=\"#matches\">"
       "Matches</a> <a href=\"#explorer\">Algorithm explorer</a> <a href=\"#decision\">Decision "
       "table</a> <a href=\"#bench\">Benchmarks</a> <a href=\"#inputs\">Inputs</a></nav></header>\n"
       "<main>\n<div id=\"script-errors\" role=\"alert\"></div>\n"
       "<section id=\"overview\"><h2>Overview</h2><div id=\"overview-body\">";
  h += staticOverview(detection);
  h += "<noscript><p class=\"missing\">Scripts are off: the diagrams, the explorer and the plots "
       "need JavaScript (inline; nothing is loaded from the network).</p></noscript>"
       "</div></section>\n<section id=\"matches\"><h2>Matches</h2><div id=\"matches-body\">"
       "</div></section>\n<section id=\"explorer\"><h2>Algorithm explorer</h2>"
       "<div id=\"explorer-body\"></div></section>\n<section id=\"decision\"><h2>Decision table"
       "</h2><div id=\"decision-body\"></div></section>\n<section id=\"bench\"><h2>Benchmarks"
       "</h2><div id=\"bench-body\"></div></section>\n<section id=\"inputs\"><h2>Inputs</h2>";
  h += staticInputs(statuses);
  h += "</section>\n</main>\n<script type=\"application/json\" id=\"cz-data\">";
  data.dump(h); // '<', '>' and '&' are \u-escaped: safe inside the element
  h += "</script>\n<script>\n";
  for (const char *js : {"common.js", "review.js", "explorer.js", "decision.js"})
    h += scriptSafe(webAsset(js)) + "\n";
  h += "</script>\n</body>\n</html>\n";
  return h;
}

} // namespace cz::report
