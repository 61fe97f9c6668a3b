// DetectionReport.cpp: reads detector/REPORT_FORMAT.md version 1.
#include "collectivize/rewrite/DetectionReport.h"

#include <cstdlib>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cz::rewrite {
namespace {

namespace json = llvm::json;

std::string str(const json::Object &o, llvm::StringRef key) {
  auto v = o.getString(key);
  return v ? v->str() : std::string();
}
long long integer(const json::Object &o, llvm::StringRef key, long long otherwise = 0) {
  if (auto v = o.getInteger(key)) return *v;
  if (auto d = o.getNumber(key)) return (long long)*d;
  return otherwise;
}
std::vector<int> ints(const json::Object &o, llvm::StringRef key) {
  std::vector<int> out;
  if (const json::Array *a = o.getArray(key))
    for (const json::Value &v : *a)
      if (auto i = v.getAsInteger()) out.push_back(int(*i));
  return out;
}

bool readSite(const json::Object &o, MatchSite &s, std::string &err) {
  auto id = o.getString("id");
  if (!id) {
    err = "a site without a string \"id\" (a report from an older detector? re-run collectivize detect)";
    return false;
  }
  char *end = nullptr;
  s.id = std::strtoull(id->str().c_str(), &end, 10);
  if (id->empty() || *end) {
    err = "site id '" + id->str() + "' is not a decimal number";
    return false;
  }
  s.instrumenter = str(o, "kind") != "return_address";
  s.send = str(o, "role") == "send";
  s.file = str(o, "file");
  s.line = int(integer(o, "line"));
  s.column = int(integer(o, "column"));
  s.function = str(o, "function");
  s.callee = str(o, "callee");
  return true;
}

} // namespace

bool readDetectionReport(const std::string &path, DetectionReport &out, std::string &err) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    err = path + ": cannot read (" + buffer.getError().message() + ")";
    return false;
  }
  auto parsed = json::parse((*buffer)->getBuffer());
  if (!parsed) {
    err = path + ": not JSON (" + llvm::toString(parsed.takeError()) + ")";
    return false;
  }
  const json::Object *root = parsed->getAsObject();
  if (!root || str(*root, "format") != "collectivize-detection") {
    err = path + ": not a Collectivize detection report (format is not \"collectivize-detection\"); "
                 "make one with `collectivize detect TRACE -o REPORT.json`";
    return false;
  }
  if (integer(*root, "version", 0) > 1) {
    err = path + ": detection report version " + std::to_string(integer(*root, "version")) +
          " is newer than this rewriter (1): update Collectivize";
    return false;
  }
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  out.path = std::string(abs);
  out.trace = str(*root, "trace");
  out.command = str(*root, "command");
  out.sites = str(*root, "sites");
  out.ranks = int(integer(*root, "ranks"));
  const json::Array *matches = root->getArray("matches");
  if (!matches) {
    err = path + ": no \"matches\" array";
    return false;
  }
  for (size_t i = 0; i < matches->size(); i++) {
    const json::Object *m = (*matches)[i].getAsObject();
    if (!m) {
      err = path + ": match " + std::to_string(i) + " is not an object";
      return false;
    }
    DetectedMatch d;
    d.index = i;
    d.kind = str(*m, "kind");
    d.status = str(*m, "status");
    d.confirmed = d.status == "confirmed";
    if (const json::Array *u = m->getArray("unproven"))
      for (const json::Value &v : *u)
        if (auto s = v.getAsString()) d.unproven.push_back(s->str());
    d.root = int(integer(*m, "root", -1));
    d.rootWorld = int(integer(*m, "root_world", -1));
    if (const json::Object *c = m->getObject("communicator")) d.commName = str(*c, "name");
    d.ranks = ints(*m, "ranks");
    d.subset = m->getBoolean("subset").getValueOr(false);
    if (const json::Object *s = m->getObject("split")) d.splitColors = ints(*s, "colors");
    d.instances = integer(*m, "instances");
    d.messages = integer(*m, "messages");
    d.bytesPerInstance = integer(*m, "bytes_per_instance");
    d.bytesMoved = integer(*m, "bytes_moved");
    d.secondsInMessages = m->getNumber("seconds_in_messages").getValueOr(0);
    d.count = integer(*m, "count");
    d.datatype = str(*m, "datatype");
    d.op = str(*m, "op");
    d.equivalent = str(*m, "equivalent");
    d.note = str(*m, "note");
    d.recvLayout = str(*m, "recv_layout");
    d.sendLayout = str(*m, "send_layout");
    if (const json::Array *sites = m->getArray("sites"))
      for (const json::Value &v : *sites) {
        const json::Object *so = v.getAsObject();
        MatchSite s;
        if (!so || !readSite(*so, s, err)) {
          err = path + ": match " + std::to_string(i) + ": " + (so ? err : "a site is not an object");
          return false;
        }
        d.sites.push_back(s);
      }
    out.matches.push_back(std::move(d));
  }
  return true;
}

} // namespace cz::rewrite
