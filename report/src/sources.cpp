// sources.cpp: the source lines around each match's call sites. A site's
// file is found through the site database's absolute "path", else under
// the project root, else beside the detection report.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "inputs.h"

namespace fs = std::filesystem;

namespace cz::report {
namespace {

constexpr int kContext = 4;       // lines shown around a call
constexpr int kMaxLinesPerFile = 120;

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

struct SiteFile {
  std::string path; // absolute, as the instrumenter saw it
  std::string hash; // its FNV-1a 64 then (SITE_DATABASE.md "file_hash")
};

// The site database's file_hash of the bytes we read now.
std::string fnv1a64Hex(const std::string &bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

// Site id -> the file the instrumenter recorded.
std::map<std::string, SiteFile> sitePaths(const std::string &sitesPath,
                                          std::vector<InputStatus> &statuses) {
  std::map<std::string, SiteFile> paths;
  if (sitesPath.empty()) return paths;
  InputStatus st{"site database", sitesPath, "", ""};
  Json db = loadVersioned(sitesPath, "collectivize-sites", st);
  for (const Json &s : db["sites"].items())
    if (s["path"].isString()) paths[s["id"].text()] = {s["path"].str(), s["file_hash"].str()};
  if (st.status == "ok")
    st.message = std::to_string(paths.size()) + " sites with their files";
  statuses.push_back(st);
  return paths;
}

} // namespace

Json loadSources(const Json &detection, const Json &patches, const ReportOptions &options,
                 std::vector<InputStatus> &statuses) {
  Json all = Json::array();
  if (detection.isNull()) return all;
  std::string sitesPath = options.sitesPath;
  if (sitesPath.empty() && detection["sites"].isString()) sitesPath = detection["sites"].str();
  auto paths = sitePaths(sitesPath, statuses);
  std::string root = options.projectRoot;
  if (root.empty() && patches["project_root"].isString()) root = patches["project_root"].str();
  fs::path reportDir = fs::absolute(options.detection).parent_path();

  std::set<std::string> unreadable, stale;
  size_t shown = 0;
  for (const Json &m : detection["matches"].items()) {
    // file -> (the instrumenter's file, lines to mark)
    std::map<std::string, std::pair<SiteFile, std::set<int>>> files;
    for (const Json &s : m["sites"].items()) {
      if (!s["file"].isString() || s["line"].num(0) < 1) continue;
      auto &entry = files[s["file"].str()];
      entry.second.insert(int(s["line"].num()));
      auto p = paths.find(s["id"].text());
      if (entry.first.path.empty() && p != paths.end()) entry.first = p->second;
    }
    Json perMatch = Json::array();
    for (auto &[file, entry] : files) {
      std::vector<std::string> candidates;
      if (!entry.first.path.empty()) candidates.push_back(entry.first.path);
      if (fs::path(file).is_absolute()) candidates.push_back(file);
      if (!root.empty()) candidates.push_back((fs::path(root) / file).string());
      candidates.push_back((reportDir / file).string());
      std::string text, error, found;
      for (const auto &c : candidates)
        if (readFile(c, text, error)) {
          found = c;
          break;
        }
      Json f = Json::object();
      f.set("file", Json::string(file));
      Json marks = Json::array();
      for (int l : entry.second) marks.push(Json::number(l));
      f.set("marks", std::move(marks));
      if (found.empty()) {
        unreadable.insert(file);
        f.set("path", Json());
        f.set("missing", Json::string("not found (tried " + candidates.front() +
                                      "): give the project root with --root DIR"));
        perMatch.push(std::move(f));
        continue;
      }
      auto lines = splitLines(text);
      // Lines only mean something in the file the program was built from.
      std::string changed;
      if (!entry.first.hash.empty() && found == entry.first.path &&
          fnv1a64Hex(text) != entry.first.hash)
        changed = "changed since it was instrumented: the marked lines may not be the calls";
      else if (!entry.second.empty() && *entry.second.rbegin() > int(lines.size()))
        changed = "has fewer lines than the report names: changed since the run?";
      if (!changed.empty()) {
        f.set("changed", Json::string(changed));
        stale.insert(file);
      }
      // Windows around the marked lines, merged, in order.
      std::vector<std::pair<int, int>> windows;
      for (int l : entry.second) {
        int lo = std::max(1, l - kContext), hi = std::min<int>(int(lines.size()), l + kContext);
        if (!windows.empty() && lo <= windows.back().second + 2)
          windows.back().second = std::max(windows.back().second, hi);
        else
          windows.push_back({lo, hi});
      }
      Json chunks = Json::array();
      int budget = kMaxLinesPerFile;
      for (auto [lo, hi] : windows) {
        if (budget <= 0) break;
        hi = std::min(hi, lo + budget - 1);
        Json c = Json::object();
        c.set("first", Json::number(lo));
        Json ls = Json::array();
        for (int l = lo; l <= hi; ++l) ls.push(Json::string(lines[size_t(l - 1)]));
        budget -= hi - lo + 1;
        c.set("lines", std::move(ls));
        chunks.push(std::move(c));
      }
      f.set("path", Json::string(found));
      f.set("chunks", std::move(chunks));
      perMatch.push(std::move(f));
      shown++;
    }
    all.push(std::move(perMatch));
  }
  InputStatus st{"sources", root.empty() ? std::string("(site database paths)") : root, "ok", ""};
  st.message = std::to_string(shown) + " source files shown";
  if (!unreadable.empty()) {
    st.status = shown ? "partial" : "missing";
    st.message += "; not found:";
    for (const auto &f : unreadable) st.message += " " + f;
    st.message += " (give the project root with --root DIR)";
  }
  if (!stale.empty()) {
    st.status = "partial";
    st.message += "; changed since the run:";
    for (const auto &f : stale) st.message += " " + f;
  }
  statuses.push_back(st);
  return all;
}

} // namespace cz::report
