// DetectionReport.cpp: reads detector/REPORT_FORMAT.md version 1.
//
// A report may be edited by hand or come from another version: every field
// the rewriter uses is checked for its type and range. A problem in the
// file's frame (format, version, matches) refuses the file; a problem in
// one match marks that match malformed (`DetectedMatch::malformed` names the
// field), so it gets no patch and the verb exits non-zero, while the other
// matches are still read.
#include "collectivize/rewrite/DetectionReport.h"

#include <cstdlib>
#include <vector>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cz::rewrite {
namespace {

namespace json = llvm::json;

// The kinds a detection report may name, and which have a root: the one
// table of collective kinds (support/kinds), so a new kind is read here
// without a change (the planner then says whether it has a patch shape).
const std::vector<const char *> &knownKinds() {
  static const std::vector<const char *> kinds = {
#define COLLECTIVE_KIND(Enum, name, MpiCall, rooted, counts, reduction, exchange, args) name,
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
  };
  return kinds;
}

bool rootedKind(const std::string &kind) {
#define COLLECTIVE_KIND(Enum, name, MpiCall, rooted, counts, reduction, exchange, args) \
  if (kind == name) return rooted;
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
  return false;
}

std::string shown(const json::Value &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  os.flush();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// The fields of one JSON object, each checked as it is read; the first
// problem is kept ("\"count\" is \"four\", not a non-negative integer").
class Fields {
public:
  Fields(const json::Object &o, std::string &problem, std::string prefix = "")
      : o(o), problem(problem), prefix(std::move(prefix)) {}

  // Absent or null: `otherwise`.
  std::string string(llvm::StringRef key, bool required = false) {
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null) {
      if (required) missing(key, "a string");
      return "";
    }
    if (auto s = v->getAsString()) return s->str();
    wrong(key, *v, "a string");
    return "";
  }
  // One of `allowed` (absent or null: "").
  std::string oneOf(llvm::StringRef key, const std::vector<const char *> &allowed, bool required) {
    std::string s = string(key, required);
    if (s.empty() && !required) return s;
    for (const char *a : allowed)
      if (s == a) return s;
    std::string list;
    for (const char *a : allowed) list += std::string(list.empty() ? "" : ", ") + "\"" + a + "\"";
    if (problem.empty()) problem = prefix + "\"" + key.str() + "\" is \"" + s + "\", not one of " + list;
    return "";
  }
  // An integer in [min, max]; absent or null: `otherwise` (or a problem if required).
  long long integer(llvm::StringRef key, long long min, long long max, long long otherwise,
                    bool required = false) {
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null) {
      if (required) missing(key, rangeText(min, max));
      return otherwise;
    }
    auto i = v->getAsInteger();
    if (!i || *i < min || *i > max) {
      wrong(key, *v, rangeText(min, max));
      return otherwise;
    }
    return *i;
  }
  double number(llvm::StringRef key, double otherwise) {
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null) return otherwise;
    auto d = v->getAsNumber();
    if (!d || *d < 0) {
      wrong(key, *v, "a non-negative number");
      return otherwise;
    }
    return *d;
  }
  bool boolean(llvm::StringRef key) {
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null) return false;
    if (auto b = v->getAsBoolean()) return *b;
    wrong(key, *v, "true or false");
    return false;
  }
  // nullable: a null element is -1 (a member's count the trace did not see).
  std::vector<int> ints(llvm::StringRef key, long long min, bool nullable = false) {
    std::vector<int> out;
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null) return out;
    const json::Array *a = v->getAsArray();
    if (!a) {
      wrong(key, *v, "an array of integers");
      return out;
    }
    for (const json::Value &e : *a) {
      if (nullable && e.kind() == json::Value::Null) {
        out.push_back(-1);
        continue;
      }
      auto i = e.getAsInteger();
      if (!i || *i < min || *i > INT32_MAX) {
        if (problem.empty())
          problem = prefix + "\"" + key.str() + "\" holds " + shown(e) + ", not " + rangeText(min, INT32_MAX);
        return {};
      }
      out.push_back(int(*i));
    }
    return out;
  }
  const json::Object *object(llvm::StringRef key) {
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null) return nullptr;
    if (const json::Object *obj = v->getAsObject()) return obj;
    wrong(key, *v, "an object");
    return nullptr;
  }
  const json::Array *array(llvm::StringRef key) {
    const json::Value *v = o.get(key);
    if (!v) {
      missing(key, "an array");
      return nullptr;
    }
    if (const json::Array *a = v->getAsArray()) return a;
    wrong(key, *v, "an array");
    return nullptr;
  }

private:
  const json::Object &o;
  std::string &problem;
  std::string prefix;

  static std::string rangeText(long long min, long long max) {
    if (min == 0 && max >= INT32_MAX) return "a non-negative integer";
    if (min == 1 && max >= INT32_MAX) return "a positive integer";
    return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  }
  void missing(llvm::StringRef key, const std::string &what) {
    if (problem.empty()) problem = prefix + "\"" + key.str() + "\" is missing (expected " + what + ")";
  }
  void wrong(llvm::StringRef key, const json::Value &v, const std::string &what) {
    if (problem.empty()) problem = prefix + "\"" + key.str() + "\" is " + shown(v) + ", not " + what;
  }
};

constexpr long long kMaxInt = INT32_MAX;
constexpr long long kMaxCount = (1LL << 53);

void readSite(const json::Object &o, size_t index, MatchSite &s, std::string &problem) {
  std::string prefix = "site " + std::to_string(index + 1) + ": ";
  Fields f(o, problem, prefix);
  std::string id = f.string("id", true);
  if (!problem.empty()) return;
  char *end = nullptr;
  s.id = std::strtoull(id.c_str(), &end, 10);
  if (id.empty() || *end || id[0] == '-' || s.id == 0) {
    problem = prefix + "\"id\" is \"" + id + "\", not a decimal site id (a report from an older "
                       "detector? run collectivize detect again)";
    return;
  }
  s.instrumenter = f.oneOf("kind", {"instrumenter", "return_address"}, true) != "return_address";
  s.send = f.oneOf("role", {"send", "recv"}, true) == "send";
  s.file = f.string("file");
  // 0: a return address named by function only (no line table).
  s.line = int(f.integer("line", 0, kMaxInt, 0));
  s.column = int(f.integer("column", 1, kMaxInt, 0));
  s.function = f.string("function");
  s.callee = f.string("callee");
  if (const json::Object *c = f.object("caller")) {
    Fields cf(*c, problem, prefix + "\"caller\": ");
    s.callerFile = cf.string("file", true);
    s.callerLine = int(cf.integer("line", 0, kMaxInt, 0, true));
    s.callerFunction = cf.string("function");
  }
}

void readMatch(const json::Object &m, DetectedMatch &d) {
  std::string &problem = d.malformed;
  Fields f(m, problem);
  d.kind = f.oneOf("kind", knownKinds(), true);
  d.status = f.oneOf("status", {"confirmed", "ambiguous", "partial"}, true);
  d.confirmed = d.status == "confirmed";
  if (m.get("unproven"))
    if (const json::Array *unproven = f.array("unproven")) // not an array: malformed
      for (const json::Value &v : *unproven)
        if (auto u = v.getAsString()) d.unproven.push_back(u->str());
  d.ranks = f.ints("ranks", 0);
  bool rooted = rootedKind(d.kind);
  long long groupEnd = d.ranks.empty() ? kMaxInt : (long long)d.ranks.size() - 1;
  // A root that varies from instance to instance: no one root, every one.
  if (m.get("roots")) d.roots = f.ints("roots", 0);
  d.root = int(f.integer("root", 0, groupEnd, -1, rooted && d.roots.empty()));
  d.rootWorld = int(f.integer("root_world", 0, kMaxInt, -1));
  if (const json::Object *c = f.object("communicator")) {
    Fields cf(*c, problem, "communicator: ");
    d.commName = cf.string("name");
    // Where the program made it (REPORT_FORMAT 1.7), for the rationale.
    if (const json::Object *at = cf.object("created_at")) {
      Fields af(*at, problem, "communicator: created_at: ");
      std::string file = af.string("file");
      long long line = af.integer("line", 0, kMaxInt, 0);
      if (!file.empty() && line > 0) d.commCreatedAt = file + ":" + std::to_string(line);
    }
    d.commColor = cf.integer("color", -kMaxInt, kMaxInt, DetectedMatch::kNoColor);
  }
  d.subset = f.boolean("subset");
  if (const json::Object *s = f.object("split")) d.splitColors = Fields(*s, problem, "split: ").ints("colors", -1);
  d.instances = f.integer("instances", 0, kMaxCount, 0);
  d.messages = f.integer("messages", 0, kMaxCount, 0);
  d.bytesPerInstance = f.integer("bytes_per_instance", 0, kMaxCount, 0);
  d.bytesMoved = f.integer("bytes_moved", 0, kMaxCount, 0);
  d.secondsInMessages = f.number("seconds_in_messages", 0);
  d.count = f.integer("count", 0, kMaxInt, 0, d.kind != "barrier");
  d.counts = f.ints("counts", 0, true);
  d.datatype = f.string("datatype", d.kind != "barrier");
  d.op = f.string("op");
  d.equivalent = f.string("equivalent");
  d.note = f.string("note");
  d.recvLayout = f.string("recv_layout");
  d.sendLayout = f.string("send_layout");
  if (!problem.empty()) return;
  if (!d.counts.empty() && d.counts.size() != d.ranks.size()) {
    problem = "\"counts\" has " + std::to_string(d.counts.size()) + " entries for a group of " +
              std::to_string(d.ranks.size()) + " (one per member of \"ranks\")";
    return;
  }
  if (rooted && d.ranks.empty()) {
    problem = "\"ranks\" is empty: a " + d.kind + " needs its group to name the root";
    return;
  }
  const json::Array *sites = f.array("sites");
  if (!sites) return;
  if (sites->empty()) {
    problem = "\"sites\" is empty: the report names no call site to rewrite";
    return;
  }
  for (size_t j = 0; j < sites->size() && problem.empty(); j++) {
    const json::Object *so = (*sites)[j].getAsObject();
    if (!so) {
      problem = "site " + std::to_string(j + 1) + " is " + shown((*sites)[j]) + ", not an object";
      return;
    }
    MatchSite s;
    readSite(*so, j, s, problem);
    d.sites.push_back(s);
  }
}

} // namespace

bool readDetectionReport(const std::string &path, DetectionReport &out, std::string &err) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    err = path + ": cannot read (" + buffer.getError().message() + ")";
    return false;
  }
  return parseDetectionReport((*buffer)->getBuffer(), path, out, err);
}

bool parseDetectionReport(llvm::StringRef text, const std::string &path, DetectionReport &out,
                          std::string &err) {
  auto parsed = json::parse(text);
  if (!parsed) {
    err = path + ": not JSON (" + llvm::toString(parsed.takeError()) + ")";
    return false;
  }
  const json::Object *root = parsed->getAsObject();
  const json::Value *format = root ? root->get("format") : nullptr;
  if (!format || format->getAsString() != llvm::Optional<llvm::StringRef>("collectivize-detection")) {
    err = path + ": not a Collectivize detection report (format is not \"collectivize-detection\"); "
                 "make one with `collectivize detect TRACE -o REPORT.json`";
    return false;
  }
  std::string problem;
  Fields f(*root, problem);
  long long version = f.integer("version", 1, kMaxInt, 1, true);
  out.trace = f.string("trace");
  out.command = f.string("command");
  out.sites = f.string("sites");
  out.ranks = int(f.integer("ranks", 0, kMaxInt, 0));
  const json::Array *matches = f.array("matches");
  if (!problem.empty()) {
    err = path + ": " + problem;
    return false;
  }
  if (version > 1) {
    err = path + ": detection report version " + std::to_string(version) +
          " is newer than this rewriter (1): update Collectivize";
    return false;
  }
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  out.path = std::string(abs);
  for (size_t i = 0; i < matches->size(); i++) {
    DetectedMatch d;
    d.index = i;
    if (const json::Object *m = (*matches)[i].getAsObject())
      readMatch(*m, d);
    else
      d.malformed = "is " + shown((*matches)[i]) + ", not an object";
    out.matches.push_back(std::move(d));
  }
  return true;
}

} // namespace cz::rewrite
