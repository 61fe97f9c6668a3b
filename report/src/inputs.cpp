// inputs.cpp: reading files, CSV and versioned JSON inputs and the patch
// directory.
#include "inputs.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collectivize/csv.h"

namespace fs = std::filesystem;

namespace cz::report {

bool readFile(const std::string &path, std::string &text, std::string &error) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    error = path + ": is a directory, not a file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read (" + std::strerror(errno) + ")";
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

bool readCsvRows(const std::string &path, const std::vector<std::string> &header,
                 const std::string &what, InputStatus &status,
                 const std::function<bool(const std::vector<std::string> &)> &row,
                 SkippedLines &skipped) {
  std::string text, error;
  if (!readFile(path, text, error)) {
    status.status = "missing";
    status.message = error;
    return false;
  }
  std::vector<csv::CsvLine> lines = csv::readLines(text);
  const bool hasHeader = !lines.empty() && lines[0].number == 1;
  if (!hasHeader || !csv::startsWith(lines[0].fields, header)) {
    status.status = "malformed";
    status.message = path + ": not " + what + " (first line: '" +
                     (hasHeader ? lines[0].text.substr(0, 80) : "") + "')";
    return false;
  }
  skipped = SkippedLines();
  for (size_t k = 1; k < lines.size(); k++) {
    if (!lines[k].ok) {
      if (!skipped.count++) skipped.first = lines[k].error.describe();
    } else if (!row(lines[k].fields)) {
      skipped.count++;
    }
  }
  return true;
}

void setCsvStatus(InputStatus &status, const std::string &kept, const SkippedLines &skipped) {
  status.status = skipped.count ? "partial" : "ok";
  status.message = kept;
  if (skipped.count)
    status.message += "; " + std::to_string(skipped.count) + " lines that do not parse were skipped";
  if (!skipped.first.empty()) status.message += " (the first: " + skipped.first + ")";
}

Json loadVersioned(const std::string &path, const std::string &format, InputStatus &status) {
  status.path = path;
  std::string text, error;
  if (!readFile(path, text, error)) {
    status.status = "missing";
    status.message = error;
    return Json();
  }
  Json doc;
  if (!parseJson(text, doc, error)) {
    status.status = "malformed";
    status.message = path + ": not valid JSON (" + error + ")";
    return Json();
  }
  if (!doc.isObject() || doc["format"].str() != format) {
    status.status = "malformed";
    status.message = path + ": not a " + format + " file (its \"format\" is " +
                     (doc["format"].isString() ? "\"" + doc["format"].str() + "\"" : "missing") + ")";
    return Json();
  }
  if (doc["version"].num(0) > 1) {
    status.status = "malformed";
    status.message = path + ": version " + doc["version"].text() +
                     " is newer than this collectivize reads (1): update collectivize";
    return Json();
  }
  status.status = "ok";
  return doc;
}

namespace {

// A text file of the patch directory, or null with a problem noted.
Json patchText(const fs::path &dir, const Json &name, std::vector<std::string> &problems) {
  if (!name.isString() || name.str().empty()) return Json();
  std::string text, error;
  if (!readFile((dir / name.str()).string(), text, error)) {
    problems.push_back(error);
    return Json();
  }
  // A diff of megabytes would make the page unusable: keep its start.
  const size_t cap = 200000;
  if (text.size() > cap) text = text.substr(0, cap) + "\n... (cut at 200 KB)\n";
  return Json::string(text);
}

} // namespace

Json loadPatches(const std::string &dir, std::vector<InputStatus> &statuses) {
  InputStatus st{"patches", dir, "not given", ""};
  if (dir.empty()) {
    st.message = "no patch directory given (--patches DIR: `collectivize rewrite` output)";
    statuses.push_back(st);
    return Json();
  }
  Json index = loadVersioned((fs::path(dir) / "patches.json").string(), "collectivize-patches", st);
  st.name = "patches";
  if (index.isNull()) {
    statuses.push_back(st);
    return Json();
  }
  Json files = Json::object();
  size_t verified = 0, proposed = 0;
  std::vector<std::string> problems;
  for (const Json &p : index["patches"].items()) {
    const std::string id = p["id"].str();
    if (id.empty() || id.find('/') != std::string::npos) {
      problems.push_back("a patch without a valid \"id\" was skipped");
      continue;
    }
    Json f = Json::object();
    f.set("diff", patchText(dir, p["diff"], problems));
    f.set("rationale", patchText(dir, p["rationale"], problems));
    std::string vpath = (fs::path(dir) / (id + ".verify.json")).string();
    InputStatus vs{"verification " + id, vpath, "", ""};
    std::error_code ec;
    if (fs::exists(vpath, ec)) {
      Json v = loadVersioned(vpath, "collectivize-verification", vs);
      if (v.isNull()) problems.push_back(vs.message);
      else verified++;
      f.set("verify", std::move(v));
    } else {
      f.set("verify", Json());
    }
    if (p["status"].str() != "none") proposed++;
    files.set(id, std::move(f));
  }
  index.set("files", std::move(files));
  st.status = problems.empty() ? "ok" : "partial";
  st.message = std::to_string(index["patches"].size()) + " patches (" + std::to_string(proposed) +
               " with a diff), " + std::to_string(verified) + " verification results";
  if (verified < proposed)
    st.message += "; not verified yet: run `collectivize verify " + dir + " -- CMD`";
  for (const auto &pr : problems) st.message += "; " + pr;
  statuses.push_back(st);
  return index;
}

} // namespace cz::report
