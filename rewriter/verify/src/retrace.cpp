// retrace.cpp: see retrace.h.
#include "retrace.h"

#include "collectivize/launcher.h"
#include "collectivize/process.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "collectivize/json.h"
#include "collectivize/launcher.h"
#include "collectivize/process.h"

namespace cz::verify {
using namespace json; // the tools' JSON model (support/json)
namespace {

bool checkReport(const std::string &path, const Json &report, std::string &error) {
  if (report.str("format") != "collectivize-detection") {
    error = path + ": not a Collectivize detection report (format '" + report.str("format") + "')";
    return false;
  }
  if (report.num("version") > 1) {
    error = path + ": detection report version " + report.find("version")->text() +
            " is newer than this collectivize reads (1): update collectivize";
    return false;
  }
  return true;
}

// An integer field of the report in [lo, hi] (absent: `otherwise`); a
// value of another type or out of range is an error naming the field.
bool integerField(const Json &o, const std::string &key, long long lo, long long hi,
                  long long otherwise, long long &out, const std::string &where, std::string &error) {
  const Json *v = o.find(key);
  out = otherwise;
  if (!v || v->isNull()) return true;
  if (v->integerIn(lo, hi, out)) return true;
  error = where + ": \"" + key + "\" is " + (v->isNumber() ? v->text() : "not a number") +
          ", not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return false;
}

constexpr long long kMaxRanks = 1 << 24;

bool toCollective(const Json &m, const std::string &where, ManualCollective &c, std::string &error) {
  c.kind = m.str("kind");
  c.confirmed = m.str("status") == "confirmed";
  long long v = 0;
  if (!integerField(m, "root_world", -1, kMaxRanks, -1, v, where, error)) return false;
  c.rootWorld = long(v);
  if (!integerField(m, "instances", 0, (1LL << 53), 0, v, where, error)) return false;
  c.instances = long(v);
  if (const Json *r = m.find("ranks"))
    for (const Json &x : r->items()) {
      if (!x.integerIn(0, kMaxRanks, v)) {
        error = where + ": \"ranks\" holds " + (x.isNumber() ? x.text() : "a value that is not a number") +
                ", not a rank";
        return false;
      }
      c.ranks.push_back(long(v));
    }
  return true;
}

bool findingsOf(const std::string &path, const Json &report, TraceFindings &out,
                std::string &error) {
  if (!checkReport(path, report, error)) return false;
  out = TraceFindings();
  long long v = 0;
  if (!integerField(report, "ranks", 0, kMaxRanks, 0, v, path, error)) return false;
  out.ranks = int(v);
  if (const Json *ms = report.find("matches")) {
    size_t k = 0;
    for (const Json &m : ms->items()) {
      ManualCollective c;
      if (!toCollective(m, path + ": match " + std::to_string(k++), c, error)) return false;
      out.matches.push_back(c);
    }
  }
  if (const Json *stats = report.find("stats"))
    if (const Json *colls = stats->find("collectives"))
      for (const auto &[name, n] : colls->members()) {
        if (!n.integerIn(0, (1LL << 53), v)) {
          error = path + ": stats.collectives \"" + name + "\" is " +
                  (n.isNumber() ? n.text() : "not a number") + ", not a count";
          return false;
        }
        out.collectives[name] = uint64_t(v);
      }
  return true;
}

} // namespace

bool readDetectionReport(const std::string &path, TraceFindings &out, std::string &error) {
  Json report;
  if (!readJsonFile(path, report, error)) return false;
  return findingsOf(path, report, out, error);
}

bool parseDetectionReport(const std::string &text, const std::string &path, TraceFindings &out,
                          std::string &error) {
  Json report;
  if (!parseJson(text, report, error)) {
    error = path + ": not valid JSON: " + error;
    return false;
  }
  return findingsOf(path, report, out, error);
}

bool sameCollective(const ManualCollective &a, int ranksA, const ManualCollective &b,
                    int ranksB) {
  if (a.kind != b.kind || a.rootWorld != b.rootWorld) return false;
  if (a.ranks == b.ranks) return true;
  return ranksA != ranksB && long(a.ranks.size()) == ranksA && long(b.ranks.size()) == ranksB;
}

std::string mpiCollectiveFor(const std::string &kind) {
  if (kind.empty()) return "";
  std::string name = "MPI_" + kind;
  name[4] = char(toupper(name[4]));
  return name;
}

std::vector<std::string> acceptedCollectives(const std::string &kind) {
  std::string base = mpiCollectiveFor(kind);
  // Equal blocks: the _block form; the general form gives the same result.
  if (kind == "reduce_scatter") return {"MPI_Reduce_scatter_block", "MPI_Reduce_scatter"};
  if (kind == "bcast" || kind == "barrier" || kind == "reduce" || kind == "allreduce" || kind == "scan" ||
      kind == "exscan")
    return {base};
  return {base, base + "v"}; // the v form gives the same result
}

std::vector<std::pair<std::string, std::string>> sameHeapFill() {
  const char *user = std::getenv("MALLOC_PERTURB_");
  if (user && *user) return {};
  return {{"MALLOC_PERTURB_", "165"}};
}

TracedCommand tracedCommand(const std::vector<std::string> &command, launch::Kind kind,
                            const std::string &tracer, const std::string &traceDir,
                            const std::string &effectsDir) {
  TracedCommand t;
  t.argv = command;
  std::vector<std::pair<std::string, std::string>> fill;
  if (!effectsDir.empty()) fill = sameHeapFill();
  if (kind == launch::Kind::Unknown) {
    // Not a launcher (the program itself), or one whose kind is unknown:
    // the environment, which a local launch hands to its ranks.
    t.env = {{"LD_PRELOAD", tracer}, {"COLLECTIVIZE_TRACE_DIR", traceDir}};
    if (!effectsDir.empty()) t.env.push_back({"COLLECTIVIZE_VERIFY_EFFECTS", effectsDir});
    t.env.insert(t.env.end(), fill.begin(), fill.end());
    return t;
  }
  // Through the launcher, in its own words (Open MPI -x, Hydra -genv,
  // srun --export): its ranks may not inherit its environment.
  launch::Vars vars = fill;
  if (!effectsDir.empty()) vars.push_back({"COLLECTIVIZE_VERIFY_EFFECTS", effectsDir});
  vars.push_back({"LD_PRELOAD", tracer});
  vars.push_back({"COLLECTIVIZE_TRACE_DIR", traceDir});
  t.argv = launch::withVariables(command, kind, vars);
  return t;
}

TracedCommand tracedCommand(const std::vector<std::string> &command, const std::string &tracer,
                            const std::string &traceDir, const std::string &effectsDir) {
  // kindOf may ask the launcher `--version`: once per launcher, not once
  // per traced run (verify traces every copy with every run command).
  static std::map<std::string, launch::Kind> kinds;
  launch::Kind kind = launch::Kind::Unknown;
  if (!command.empty()) {
    std::string path = process::findProgram(command[0]);
    if (!path.empty()) {
      auto it = kinds.find(path);
      if (it == kinds.end()) it = kinds.emplace(path, launch::kindOf(path)).first;
      kind = it->second;
    }
  }
  return tracedCommand(command, kind, tracer, traceDir, effectsDir);
}

} // namespace cz::verify
