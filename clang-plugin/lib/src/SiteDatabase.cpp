// SiteDatabase.cpp: JSON (llvm::json) writer and reader of the site
// database, and the locked merge the compiler wrappers use under make -j.
#include "collectivize/clang/SiteDatabase.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/file.h>
#include <tuple>
#include <unistd.h>

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "collectivize/clang/SiteId.h"

namespace cz::clangtools {
namespace json = llvm::json;

namespace {

void writePos(json::OStream &o, const Position &p) {
  o.object([&] {
    o.attribute("line", int64_t(p.line));
    o.attribute("column", int64_t(p.column));
  });
}

void writeRange(json::OStream &o, const Range &r) {
  o.object([&] {
    o.attributeBegin("begin");
    writePos(o, r.begin);
    o.attributeEnd();
    o.attributeBegin("end");
    writePos(o, r.end);
    o.attributeEnd();
  });
}

void writeSite(json::OStream &o, const Site &s) {
  o.object([&] {
    // Decimal string: exact in every JSON reader, and what `trace dump` prints.
    o.attribute("id", std::to_string(s.id));
    o.attribute("file", s.file);
    o.attribute("line", int64_t(s.position.line));
    o.attribute("column", int64_t(s.position.column));
    o.attributeBegin("range");
    writeRange(o, s.range);
    o.attributeEnd();
    o.attribute("callee", s.callee);
    o.attribute("kind", s.kind);
    o.attributeArray("args", [&] {
      for (const std::string &a : s.args) o.value(a);
    });
    o.attribute("function", s.function);
    o.attributeBegin("function_range");
    writeRange(o, s.functionRange);
    o.attributeEnd();
    o.attributeArray("context", [&] {
      for (const ContextEntry &c : s.context)
        o.object([&] {
          o.attribute("kind", c.kind);
          o.attribute("header", c.header);
          if (!c.condition.empty()) o.attribute("condition", c.condition);
          if (!c.branch.empty()) o.attribute("branch", c.branch);
          o.attributeBegin("range");
          writeRange(o, c.range);
          o.attributeEnd();
        });
    });
    if (s.inMacro) {
      o.attributeObject("macro", [&] {
        o.attribute("name", s.macro.name);
        o.attribute("spelling_file", s.macro.spellingFile);
        o.attributeBegin("spelling");
        writePos(o, s.macro.spelling);
        o.attributeEnd();
        o.attributeBegin("expansion");
        writePos(o, s.macro.expansion);
        o.attributeEnd();
        if (!s.macro.expansionFile.empty() && s.macro.expansionFile != s.file)
          o.attribute("expansion_file", s.macro.expansionFile);
        if (!s.macro.expansions.empty())
          o.attributeArray("expansions", [&] {
            for (const Position &p : s.macro.expansions) writePos(o, p);
          });
      });
    } else {
      o.attribute("macro", nullptr);
    }
    o.attribute("in_template", s.inTemplate);
    o.attribute("anchor", s.anchor);
    o.attribute("instrumented", s.instrumented);
    if (!s.note.empty()) o.attribute("note", s.note);
    o.attribute("path", s.path);
    o.attribute("file_hash", hex16(s.fileHash));
    if (!s.peers.empty())
      o.attributeArray("peers", [&] {
        for (const std::string &p : s.peers) o.value(p);
      });
    if (!s.callPath.empty()) o.attribute("call_path", s.callPath);
    if (!s.staging.copy.empty())
      o.attributeObject("staging", [&] {
        o.attribute("copy", s.staging.copy);
        o.attribute("line", int64_t(s.staging.at.line));
        o.attribute("column", int64_t(s.staging.at.column));
        o.attribute("buffer", s.staging.buffer);
        o.attribute("array", s.staging.array);
        o.attribute("offset", s.staging.offset);
        o.attribute("offset_from", s.staging.offsetFrom);
      });
    if (!s.varies.variable.empty())
      o.attributeObject("value_varies", [&] {
        o.attribute("variable", s.varies.variable);
        o.attribute("line", int64_t(s.varies.at.line));
        o.attribute("column", int64_t(s.varies.at.column));
        o.attribute("assignment", s.varies.assignment);
        o.attribute("follows", s.varies.follows);
      });
    if (!s.peerIndexed.layout.empty())
      o.attributeObject("peer_indexed", [&] {
        o.attribute("layout", s.peerIndexed.layout);
        o.attribute("buffer", s.peerIndexed.buffer);
        o.attribute("array", s.peerIndexed.array);
        o.attribute("index", s.peerIndexed.index);
        o.attribute("stride", s.peerIndexed.stride);
        o.attribute("peer", s.peerIndexed.peer);
        o.attribute("follows", s.peerIndexed.follows);
      });
  });
}

// ---- reading ----------------------------------------------------------

struct Reader {
  std::string err;

  bool fail(const std::string &what) {
    if (err.empty()) err = what;
    return false;
  }
  bool str(const json::Object &o, llvm::StringRef key, std::string &out, bool required = true) {
    const json::Value *v = o.get(key);
    if (!v) return required ? fail("missing \"" + key.str() + "\"") : true;
    auto s = v->getAsString();
    if (!s) return fail("\"" + key.str() + "\" is not a string");
    out = s->str();
    return true;
  }
  bool uns(const json::Value *v, unsigned &out, llvm::StringRef what) {
    auto n = v ? v->getAsInteger() : llvm::None;
    if (!n || *n < 0) return fail(what.str() + " is not a non-negative integer");
    out = unsigned(*n);
    return true;
  }
  bool pos(const json::Value *v, Position &p, llvm::StringRef what) {
    const json::Object *o = v ? v->getAsObject() : nullptr;
    if (!o) return fail(what.str() + " is not {\"line\": L, \"column\": C}");
    return uns(o->get("line"), p.line, what) && uns(o->get("column"), p.column, what);
  }
  bool range(const json::Value *v, Range &r, llvm::StringRef what) {
    const json::Object *o = v ? v->getAsObject() : nullptr;
    if (!o) return fail(what.str() + " is not a range object");
    return pos(o->get("begin"), r.begin, what) && pos(o->get("end"), r.end, what);
  }
  bool boolean(const json::Object &o, llvm::StringRef key, bool &out) {
    auto b = o.getBoolean(key);
    if (!b) return fail("\"" + key.str() + "\" is not a boolean");
    out = *b;
    return true;
  }

  bool site(const json::Object &o, Site &s) {
    std::string id, hash;
    if (!str(o, "id", id)) return false;
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos ||
        llvm::StringRef(id).getAsInteger(10, s.id))
      return fail("\"id\" is not a decimal 64-bit number: '" + id + "'");
    if (!str(o, "file", s.file) || !uns(o.get("line"), s.position.line, "line") ||
        !uns(o.get("column"), s.position.column, "column") ||
        !range(o.get("range"), s.range, "range") || !str(o, "callee", s.callee) ||
        !str(o, "kind", s.kind) || !str(o, "function", s.function) ||
        !range(o.get("function_range"), s.functionRange, "function_range") ||
        !boolean(o, "in_template", s.inTemplate) || !str(o, "anchor", s.anchor) ||
        !boolean(o, "instrumented", s.instrumented) || !str(o, "note", s.note, false) ||
        !str(o, "call_path", s.callPath, false) ||
        !str(o, "path", s.path) || !str(o, "file_hash", hash))
      return false;
    if (llvm::StringRef(hash).getAsInteger(16, s.fileHash))
      return fail("\"file_hash\" is not hexadecimal");
    const json::Array *args = o.getArray("args");
    if (!args) return fail("\"args\" is not an array");
    for (const json::Value &a : *args) {
      auto t = a.getAsString();
      if (!t) return fail("an argument is not a string");
      s.args.push_back(t->str());
    }
    if (const json::Array *peers = o.getArray("peers"))
      for (const json::Value &p : *peers) {
        auto t = p.getAsString();
        if (!t) return fail("a peer class is not a string");
        s.peers.push_back(t->str());
      }
    if (const json::Value *st = o.get("staging")) { // optional: older databases lack it
      const json::Object *so = st->getAsObject();
      if (!so) return fail("\"staging\" is not an object");
      StagingCopy &c = s.staging;
      auto line = so->getInteger("line"), column = so->getInteger("column");
      if (!line || !column) return fail("\"staging\" lacks line or column");
      c.at = {unsigned(*line), unsigned(*column)};
      if (!str(*so, "copy", c.copy) || !str(*so, "buffer", c.buffer) ||
          !str(*so, "array", c.array) || !str(*so, "offset", c.offset) ||
          !str(*so, "offset_from", c.offsetFrom))
        return false;
    }
    if (const json::Value *vv = o.get("value_varies")) { // optional: revision 1.2
      const json::Object *vo = vv->getAsObject();
      if (!vo) return fail("\"value_varies\" is not an object");
      VaryingValue &v = s.varies;
      auto line = vo->getInteger("line"), column = vo->getInteger("column");
      if (!line || !column) return fail("\"value_varies\" lacks line or column");
      v.at = {unsigned(*line), unsigned(*column)};
      if (!str(*vo, "variable", v.variable) || !str(*vo, "assignment", v.assignment) ||
          !str(*vo, "follows", v.follows))
        return false;
    }
    if (const json::Value *pi = o.get("peer_indexed")) { // optional: older databases lack it
      const json::Object *po = pi->getAsObject();
      if (!po) return fail("\"peer_indexed\" is not an object");
      PeerIndexed &p = s.peerIndexed;
      if (!str(*po, "layout", p.layout) || !str(*po, "buffer", p.buffer) ||
          !str(*po, "array", p.array) || !str(*po, "index", p.index) ||
          !str(*po, "stride", p.stride) || !str(*po, "peer", p.peer) ||
          !str(*po, "follows", p.follows))
        return false;
    }
    const json::Array *ctx = o.getArray("context");
    if (!ctx) return fail("\"context\" is not an array");
    for (const json::Value &v : *ctx) {
      const json::Object *c = v.getAsObject();
      if (!c) return fail("a context entry is not an object");
      ContextEntry e;
      if (!str(*c, "kind", e.kind) || !str(*c, "header", e.header) ||
          !str(*c, "condition", e.condition, false) || !str(*c, "branch", e.branch, false) ||
          !range(c->get("range"), e.range, "context range"))
        return false;
      s.context.push_back(std::move(e));
    }
    const json::Value *m = o.get("macro");
    if (!m) return fail("missing \"macro\"");
    if (const json::Object *mo = m->getAsObject()) {
      s.inMacro = true;
      if (!str(*mo, "name", s.macro.name) || !str(*mo, "spelling_file", s.macro.spellingFile) ||
          !pos(mo->get("spelling"), s.macro.spelling, "macro spelling") ||
          !pos(mo->get("expansion"), s.macro.expansion, "macro expansion") ||
          !str(*mo, "expansion_file", s.macro.expansionFile, false))
        return false;
      if (const json::Array *ex = mo->getArray("expansions"))
        for (const json::Value &v : *ex) {
          Position p;
          if (!pos(&v, p, "macro expansions")) return false;
          s.macro.expansions.push_back(p);
        }
    } else if (!m->getAsNull()) {
      return fail("\"macro\" is neither null nor an object");
    }
    return true;
  }
};

bool siteLess(const Site &a, const Site &b) {
  return std::tie(a.file, a.position.line, a.position.column, a.id) <
         std::tie(b.file, b.position.line, b.position.column, b.id);
}

} // namespace

std::string toJson(const SiteDatabase &db) {
  std::string out;
  llvm::raw_string_ostream os(out);
  // One record per line: readable, greppable and diffable.
  os << "{\n  \"format\": \"collectivize-sites\",\n  \"version\": " << db.version
     << ",\n  \"sites\": [";
  for (size_t i = 0; i < db.sites.size(); ++i) {
    os << (i ? ",\n    " : "\n    ");
    json::OStream o(os);
    writeSite(o, db.sites[i]);
  }
  os << (db.sites.empty() ? "]" : "\n  ]");
  // Written only when there are any: databases of clean builds stay as
  // they were.
  if (!db.uninstrumented.empty()) {
    os << ",\n  \"uninstrumented\": [";
    for (size_t i = 0; i < db.uninstrumented.size(); ++i) {
      os << (i ? ",\n    " : "\n    ");
      json::OStream o(os);
      o.object([&] {
        o.attribute("file", db.uninstrumented[i].file);
        o.attribute("reason", db.uninstrumented[i].reason);
      });
    }
    os << "\n  ]";
  }
  if (!db.sources.empty()) {
    os << ",\n  \"sources\": [";
    for (size_t i = 0; i < db.sources.size(); ++i) {
      os << (i ? ",\n    " : "\n    ");
      json::OStream o(os);
      o.object([&] {
        o.attribute("file", db.sources[i].file);
        o.attribute("file_hash", hex16(db.sources[i].hash));
      });
    }
    os << "\n  ]";
  }
  if (!db.droppedFlags.empty()) {
    os << ",\n  \"dropped_flags\": ";
    json::OStream o(os);
    o.array([&] {
      for (const std::string &f : db.droppedFlags) o.value(f);
    });
  }
  os << "\n}\n";
  return os.str();
}

bool fromJson(llvm::StringRef text, SiteDatabase &db, std::string &err) {
  db = SiteDatabase();
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    err = "not JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const json::Object *top = parsed->getAsObject();
  if (!top || top->getString("format") != llvm::Optional<llvm::StringRef>("collectivize-sites")) {
    err = "not a site database (\"format\" is not \"collectivize-sites\")";
    return false;
  }
  auto version = top->getInteger("version");
  if (!version || *version < 1 || *version > kSiteDatabaseVersion) {
    err = "unsupported site database version (this tool reads version " +
          std::to_string(kSiteDatabaseVersion) + ")";
    return false;
  }
  db.version = int(*version);
  const json::Array *sites = top->getArray("sites");
  if (!sites) {
    err = "\"sites\" is not an array";
    return false;
  }
  Reader r;
  for (size_t i = 0; i < sites->size(); ++i) {
    const json::Object *o = (*sites)[i].getAsObject();
    Site s;
    if (!o) r.fail("not an object");
    if (!o || !r.site(*o, s)) {
      err = "site " + std::to_string(i) + ": " + r.err;
      return false;
    }
    db.sites.push_back(std::move(s));
  }
  if (const json::Array *files = top->getArray("uninstrumented")) {
    for (size_t i = 0; i < files->size(); ++i) {
      const json::Object *o = (*files)[i].getAsObject();
      auto file = o ? o->getString("file") : llvm::None;
      if (!file) {
        err = "uninstrumented file " + std::to_string(i) + ": no \"file\"";
        return false;
      }
      auto reason = o->getString("reason");
      db.uninstrumented.push_back({file->str(), reason ? reason->str() : ""});
    }
  }
  if (const json::Array *files = top->getArray("sources")) {
    for (size_t i = 0; i < files->size(); ++i) {
      const json::Object *o = (*files)[i].getAsObject();
      auto file = o ? o->getString("file") : llvm::None;
      auto hash = o ? o->getString("file_hash") : llvm::None;
      ParsedSource p;
      if (!file || !hash || hash->getAsInteger(16, p.hash)) {
        err = "source " + std::to_string(i) + ": no \"file\" or no hexadecimal \"file_hash\"";
        return false;
      }
      p.file = file->str();
      db.sources.push_back(std::move(p));
    }
  }
  if (const json::Array *flags = top->getArray("dropped_flags"))
    for (const json::Value &f : *flags)
      if (auto s = f.getAsString()) db.droppedFlags.push_back(s->str());
  return true;
}

bool readSiteDatabase(const std::string &path, SiteDatabase &db, std::string &err) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    if (buf.getError() == std::errc::no_such_file_or_directory) {
      db = SiteDatabase();
      return true;
    }
    err = path + ": " + buf.getError().message();
    return false;
  }
  if ((*buf)->getBuffer().trim().empty()) { // created by a crashed writer's lock step
    db = SiteDatabase();
    return true;
  }
  if (!fromJson((*buf)->getBuffer(), db, err)) {
    err = path + ": " + err;
    return false;
  }
  return true;
}

bool writeSiteDatabase(const std::string &path, const SiteDatabase &db, std::string &err) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec) {
      err = "cannot write the site database " + path + ": " + ec.message();
      return false;
    }
    os << toJson(db);
    os.close();
    if (os.has_error()) {
      err = "cannot write the site database " + path + ": " + os.error().message();
      os.clear_error();
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = "cannot replace the site database " + path + ": " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

void mergeSites(SiteDatabase &db, const std::vector<Site> &sites) {
  std::map<std::string, uint64_t> newHash;
  for (const Site &s : sites) newHash[s.file] = s.fileHash;
  std::map<uint64_t, Site> byId;
  for (Site &s : db.sites) {
    auto it = newHash.find(s.file);
    if (it != newHash.end() && it->second != s.fileHash) continue; // stale
    byId[s.id] = std::move(s);
  }
  for (const Site &s : sites) byId[s.id] = s;
  for (ParsedSource &p : db.sources)
    if (auto it = newHash.find(p.file); it != newHash.end()) p.hash = it->second;
  db.sites.clear();
  for (auto &kv : byId) db.sites.push_back(std::move(kv.second));
  std::sort(db.sites.begin(), db.sites.end(), siteLess);
}

bool knownHash(const SiteDatabase &db, const std::string &file, uint64_t &hash) {
  for (const ParsedSource &p : db.sources)
    if (p.file == file) {
      hash = p.hash;
      return true;
    }
  for (const Site &s : db.sites)
    if (s.file == file) {
      hash = s.fileHash;
      return true;
    }
  return false;
}

std::vector<std::string> mergeNotes(SiteDatabase &db, const BuildNotes &notes) {
  std::map<std::string, uint64_t> hashes;
  for (const ParsedSource &p : db.sources) hashes[p.file] = p.hash;
  for (const ParsedSource &p : notes.sources) hashes[p.file] = p.hash;
  db.sources.clear();
  for (const auto &[file, hash] : hashes) db.sources.push_back({file, hash});
  std::set<std::string> done(notes.instrumentedFiles.begin(), notes.instrumentedFiles.end());
  std::map<std::string, std::string> failed;
  for (UninstrumentedFile &u : db.uninstrumented)
    if (!done.count(u.file)) failed[u.file] = std::move(u.reason);
  for (const UninstrumentedFile &u : notes.uninstrumented) failed[u.file] = u.reason;
  db.uninstrumented.clear();
  for (auto &[file, reason] : failed) db.uninstrumented.push_back({file, std::move(reason)});
  std::set<std::string> flags(db.droppedFlags.begin(), db.droppedFlags.end());
  std::vector<std::string> fresh;
  for (const std::string &f : notes.droppedFlags)
    if (flags.insert(f).second) fresh.push_back(f);
  db.droppedFlags.assign(flags.begin(), flags.end());
  return fresh;
}

bool mergeIntoSiteDatabase(const std::string &path, const std::vector<Site> &sites,
                           std::string &err, const BuildNotes &notes,
                           std::vector<std::string> *newFlags) {
  std::string lockPath = path + ".lock";
  int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    err = "cannot open the site database lock " + lockPath + ": " + std::strerror(errno);
    return false;
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      err = "cannot lock " + lockPath + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
  }
  SiteDatabase db;
  bool ok = readSiteDatabase(path, db, err);
  if (ok) {
    mergeSites(db, sites);
    std::vector<std::string> fresh = mergeNotes(db, notes);
    if (newFlags) *newFlags = fresh;
    ok = writeSiteDatabase(path, db, err);
  }
  ::close(fd); // releases the lock
  return ok;
}

} // namespace cz::clangtools
