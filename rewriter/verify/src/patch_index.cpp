// patch_index.cpp: see patch_index.h.
#include "patch_index.h"

#include <algorithm>
#include <unistd.h>

#include <filesystem>

#include "command_map.h"
#include "collectivize/json.h"

namespace fs = std::filesystem;

namespace cz::verify {
using namespace json; // the tools' JSON model (support/json)
namespace {

std::string cwd() {
  std::error_code ec;
  return fs::current_path(ec).string();
}

bool isDir(const std::string &p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}
bool isFile(const std::string &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string stem(const std::string &diff) {
  std::string s = fs::path(diff).filename().string();
  if (s.size() > 5 && s.compare(s.size() - 5, 5, ".diff") == 0) s.resize(s.size() - 5);
  return s;
}

struct Index {
  Json json;
  int nextProbe = 1; // probe ids, unique in the patch directory
  std::string dir;
  bool reportRead = false; // the detection report, read once
  TraceFindings report;
  std::string reportCommand, reportError;
};

bool readIndex(const std::string &dir, Index &index, PatchSet &set, std::string &error) {
  index.dir = dir;
  std::string path = dir + "/patches.json";
  if (!readJsonFile(path, index.json, error)) return false;
  if (index.json.str("format") != "collectivize-patches") {
    error = path + ": not a Collectivize patch index (format '" + index.json.str("format") + "')";
    return false;
  }
  if (index.json.num("version") > 1) {
    error = path + ": patch index version " + index.json.find("version")->text() +
            " is newer than this collectivize reads (1): update collectivize";
    return false;
  }
  set.projectRoot = index.json.str("project_root");
  set.buildDir = index.json.str("build_dir");
  set.target = index.json.str("target", "mpi");
  if (set.projectRoot.empty()) {
    error = path + ": no project_root";
    return false;
  }
  const Json *patches = index.json.find("patches");
  if (!patches || patches->type() != Json::Type::Array) {
    error = path + ": no patches array";
    return false;
  }
  return true;
}

// The report's match a patch targets (kind, group and root).
bool targetsOf(Index &index, const Json &patch, PatchSet &set,
               std::vector<ManualCollective> &targets, std::string &error) {
  std::string report = index.json.str("report");
  if (!index.reportRead) {
    index.reportRead = true;
    Json r;
    if (readDetectionReport(report, index.report, index.reportError) &&
        readJsonFile(report, r, index.reportError))
      index.reportCommand = r.str("command");
  }
  if (!index.reportError.empty()) {
    error = index.reportError + " (patches.json names it as the detection report; verification "
                                "needs it to know which manual collective a patch removes)";
    return false;
  }
  set.reportRanks = index.report.ranks;
  set.reportCommand = index.reportCommand;
  const Json *match = patch.find("match");
  if (!match || match->type() != Json::Type::Number) {
    error = index.dir + "/patches.json: patch '" + patch.str("id") + "' has no match index";
    return false;
  }
  if (match->num() < 0 || match->num() >= double(index.report.matches.size())) {
    error = report + ": has no match " + match->text() + " (patch '" + patch.str("id") +
            "'; the patch directory was made from another report?)";
    return false;
  }
  targets.push_back(index.report.matches[size_t(match->num())]);
  // The matches whose messages the patch replaces too (a fused loop).
  if (const Json *fused = patch.find("fused"); fused && fused->type() == Json::Type::Array)
    for (const Json &f : fused->items())
      if (f.type() == Json::Type::Number && f.num() >= 0 && f.num() < double(index.report.matches.size()))
        targets.push_back(index.report.matches[size_t(f.num())]);
  return true;
}

std::vector<std::string> expectedOf(const Json &patch) {
  std::vector<std::string> out;
  if (const Json *c = patch.find("collectives"); c && c->type() == Json::Type::Array)
    for (const Json &name : c->items()) out.push_back(name.text());
  return out;
}

bool hasDiff(const Json &p) {
  const Json *d = p.find("diff");
  return d && d->type() == Json::Type::String && !d->text().empty() &&
         (p.str("status") == "proposed" || p.str("status") == "review");
}

// The patch's region and effect into the job (and the set, once).
void regionOf(Index &index, const Json &patch, PatchSet &set, VerifyJob &job) {
  std::string id = patch.str("id");
  for (const PatchRegion &known : set.regions)
    if (known.id == id) {
      job.regions.push_back(known);
      return;
    }
  PatchRegion region;
  std::string whyNot;
  if (!readPatchRegion(patch, index.nextProbe, region, whyNot)) {
    if (job.noEffect.empty()) job.noEffect = whyNot;
    return;
  }
  job.regions.push_back(region);
  set.regions.push_back(region);
}

} // namespace

bool resolvePatchSet(const std::string &patchArg, const std::string &rootOption,
                     const std::string &outputOption, PatchSet &set, std::string &error) {
  std::string arg = absolutePath(patchArg, cwd());
  if (isDir(arg)) {
    if (!isFile(arg + "/patches.json")) {
      error = arg + " has no patches.json: give a patch directory from `collectivize rewrite` or "
                    "one .diff file";
      return false;
    }
    Index index;
    if (!readIndex(arg, index, set, error)) return false;
    for (const Json &p : index.json.find("patches")->items()) {
      std::string id = p.str("id");
      if (!hasDiff(p)) {
        set.notes.push_back(id + ": no patch to verify (" + p.str("status", "?") +
                            (p.str("reason").empty() ? "" : ": " + p.str("reason")) + ")");
        continue;
      }
      VerifyJob job;
      job.id = id;
      job.diff = arg + "/" + p.str("diff");
      job.status = p.str("status");
      job.reason = p.str("reason");
      job.resultPath = arg + "/" + stem(job.diff) + ".verify.json";
      if (!targetsOf(index, p, set, job.targets, error)) return false;
      job.expected = expectedOf(p);
      regionOf(index, p, set, job);
      set.jobs.push_back(job);
    }
    if (set.jobs.empty()) {
      error = arg + ": no patch in it has a diff to verify";
      for (const std::string &n : set.notes) error += "\n  " + n;
      return false;
    }
    if (!outputOption.empty() && set.jobs.size() > 1) {
      error = "-o names one result file, and " + arg + " has " +
              std::to_string(set.jobs.size()) + " patches: leave -o out (each result goes "
              "beside its diff) or verify one .diff";
      set.usageProblem = true;
      return false;
    }
    if (!outputOption.empty()) set.jobs[0].resultPath = absolutePath(outputOption, cwd());
  } else if (isFile(arg)) {
    std::string dir = fs::path(arg).parent_path().string();
    VerifyJob job;
    job.id = stem(arg);
    job.diff = arg;
    if (isFile(dir + "/patches.json")) {
      Index index;
      if (!readIndex(dir, index, set, error)) return false;
      std::string name = fs::path(arg).filename().string();
      bool found = false;
      for (const Json &p : index.json.find("patches")->items()) {
        if (name == "all.diff" ? hasDiff(p) : p.str("diff") == name) {
          if (!targetsOf(index, p, set, job.targets, error)) return false;
          for (const std::string &e : expectedOf(p))
            if (std::find(job.expected.begin(), job.expected.end(), e) == job.expected.end()) job.expected.push_back(e);
          if (name != "all.diff") job.status = p.str("status"), job.reason = p.str("reason");
          // all.diff holds the proposed patches only: a review patch's
          // replacement is not in it.
          if (name != "all.diff" || p.str("status") == "proposed") regionOf(index, p, set, job);
          found = true;
        }
      }
      if (!found) {
        error = name + " is not a patch listed in " + dir + "/patches.json";
        return false;
      }
      job.resultPath = dir + "/" + job.id + ".verify.json";
    }
    if (!outputOption.empty()) job.resultPath = absolutePath(outputOption, cwd());
    if (job.regions.empty() && job.noEffect.empty())
      job.noEffect = "a diff outside a patch directory comes with no effect description";
    set.jobs.push_back(job);
  } else {
    error = patchArg + ": no such patch file or patch directory";
    return false;
  }
  if (!rootOption.empty()) set.projectRoot = absolutePath(rootOption, cwd());
  if (set.projectRoot.empty()) {
    error = patchArg + " is not in a patch directory (no patches.json beside it): give the "
                       "project root it applies to with --root DIR";
    set.usageProblem = true;
    return false;
  }
  if (!isDir(set.projectRoot)) {
    error = "the project root " + set.projectRoot + " is not a directory" +
            (rootOption.empty() ? " (from patches.json; --root DIR if the project moved)" : "");
    return false;
  }
  set.projectRoot = absolutePath(set.projectRoot, "/");
  if (!set.buildDir.empty()) set.buildDir = absolutePath(set.buildDir, "/");
  return true;
}

} // namespace cz::verify
