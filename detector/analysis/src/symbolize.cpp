// symbolize.cpp: see symbolize.h.
#include "collectivize/symbolize.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "collectivize/process.h"
#include "collectivize_trace_format.h"
#include "flat_index.h"

namespace cz::detect {

std::string withoutCloneSuffix(std::string fn) {
  for (size_t at; (at = fn.rfind(" [clone .")) != std::string::npos && fn.back() == ']';)
    fn.erase(at);
  for (const char *suffix : {".constprop.", ".isra.", ".part.", ".cold", ".llvm.", ".lto_priv.",
                             ".specialized.", ".localalias"}) {
    size_t at = fn.find(suffix);
    if (at != std::string::npos && at > 0) fn.erase(at);
  }
  return fn;
}

namespace {

struct Segment {
  uint64_t start, end, bias;
  std::string path;
};

std::vector<Segment> readObjects(const std::string &path) {
  std::vector<Segment> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string a, b, c, file;
    if (!(ls >> a >> b >> c)) continue;
    std::getline(ls >> std::ws, file);
    if (file.empty()) continue;
    out.push_back({std::strtoull(a.c_str(), nullptr, 16), std::strtoull(b.c_str(), nullptr, 16),
                   std::strtoull(c.c_str(), nullptr, 16), file});
  }
  return out;
}

uint64_t fnv1a(const std::string &s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// Runs ARGV with one address per line on its standard input; returns its
// standard output and error, or false when it could not run or failed.
bool runWithAddresses(const std::vector<std::string> &argv, const std::vector<uint64_t> &addrs,
                      std::string &output, std::string &errors) {
  char tmpl[] = "/tmp/collectivize-addr-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) return false;
  {
    std::string text;
    char b[32];
    for (uint64_t a : addrs) {
      std::snprintf(b, sizeof b, "0x%" PRIx64 "\n", a);
      text += b;
    }
    if (write(fd, text.data(), text.size()) != ssize_t(text.size())) {
      close(fd);
      unlink(tmpl);
      return false;
    }
    close(fd);
  }
  process::Spec spec;
  spec.argv = argv;
  spec.stdinPath = tmpl;
  spec.out = process::Output::capture();
  spec.err = process::Output::capture();
  process::Result r = process::run(spec);
  unlink(tmpl);
  output = std::move(r.out);
  errors = std::move(r.err);
  return r.started && r.exitCode == 0;
}

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) {
    while (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  return lines;
}

// binutils' addr2line: two lines per address ("function", "file:line").
bool addr2line(const std::string &object, const std::vector<uint64_t> &addrs,
               std::vector<std::pair<std::string, std::string>> &out) {
  std::string text, errors;
  if (!runWithAddresses({"addr2line", "-f", "-C", "-e", object}, addrs, text, errors)) return false;
  std::vector<std::string> lines = linesOf(text);
  for (size_t i = 0; i + 1 < lines.size(); i += 2) out.push_back({lines[i], lines[i + 1]});
  return out.size() == addrs.size();
}

// llvm-symbolizer: per address, one "function", "file:line:column" pair per
// frame, the innermost inlined one first, then an empty line. The
// innermost frame is the function that makes the MPI call in the source.
bool llvmSymbolizer(const std::string &tool, const std::string &object,
                    const std::vector<uint64_t> &addrs,
                    std::vector<std::pair<std::string, std::string>> &out) {
  std::string text, errors;
  if (!runWithAddresses({tool, "--inlines", "--demangle", "--output-style=LLVM", "--obj=" + object},
                        addrs, text, errors))
    return false;
  // An unreadable object still gives "??" per address and exit 0.
  if (errors.find("error") != std::string::npos) return false;
  std::vector<std::string> lines = linesOf(text);
  for (size_t i = 0; i < lines.size();) {
    if (lines[i].empty()) { i++; continue; }
    if (i + 1 >= lines.size()) return false;
    std::string fn = lines[i], where = lines[i + 1];
    // "file:line:column" -> "file:line" as addr2line writes it.
    size_t last = where.rfind(':');
    if (last != std::string::npos && last > 0 && where.rfind(':', last - 1) != std::string::npos)
      where.erase(last);
    // Without debug information both name the symbol around the address
    // and "??:0" as its place: the caller reports function + address.
    out.push_back({withoutCloneSuffix(fn), where});
    while (i < lines.size() && !lines[i].empty()) i++; // the outer frames
  }
  return out.size() == addrs.size();
}

// llvm-symbolizer where one is installed, addr2line otherwise. binutils
// 2.40's addr2line does not follow the DWARF 5 range lists of inlined code
// (clang 14's default), so it names the outer function of a call inlined
// in pieces (e.g. `main` for a call in an inlined helper); its lines are
// right. Found once per run.
const std::string &llvmSymbolizerPath() {
  static const std::string path = [] {
    std::string found = process::findProgram("llvm-symbolizer");
    for (int v = 20; found.empty() && v >= 11; v--)
      found = process::findProgram("llvm-symbolizer-" + std::to_string(v));
    return found;
  }();
  return path;
}

} // namespace

bool locateFileAddresses(const std::string &object, const std::vector<uint64_t> &addrs,
                         std::vector<std::pair<std::string, std::string>> &out,
                         std::string *tool) {
  out.clear();
  const std::string &llvm = llvmSymbolizerPath();
  if (!llvm.empty() && llvmSymbolizer(llvm, object, addrs, out)) {
    if (tool) *tool = llvm;
    return true;
  }
  out.clear();
  if (tool) *tool = "addr2line";
  return addr2line(object, addrs, out);
}


SymbolizeStats symbolizeReturnAddresses(const std::string &dir, MessageTable &t,
                                        SiteLocations &where) {
  SymbolizeStats st;
  std::vector<std::vector<Segment>> objects(size_t(t.ranks));
  bool any = false;
  for (int r = 0; r < t.ranks; r++) {
    char name[64];
    std::snprintf(name, sizeof name, CZ_TRACE_OBJECTS_FMT, r);
    objects[size_t(r)] = readObjects(dir + "/" + name);
    any |= !objects[size_t(r)].empty();
  }
  // (rank, return address) of every site to resolve.
  // Two per message, of few distinct values: one open-addressing index
  // finds the distinct ones (a map per message was a tenth of a second on
  // 3 M events), the map then holds only those.
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> canonical;
  // The callers of sites in the program's own wrappers (rank, address):
  // resolved like return addresses, but places of calls to a wrapper, not
  // MPI calls of their own.
  std::set<std::pair<uint32_t, uint64_t>> callers, siteKeys;
  {
    struct Key {
      uint32_t rank = 0;
      uint64_t address = 0;
      bool operator==(const Key &o) const { return rank == o.rank && address == o.address; }
    };
    struct Hash {
      size_t operator()(const Key &k) const { return size_t(detail::mixBits(k.address ^ uint64_t(k.rank) << 48)); }
    };
    detail::FlatIndex<Key, Hash> seen;
    auto add = [&](uint32_t rank, uint64_t address) {
      if (seen.insert({rank, address}, 0).second) {
        canonical[{rank, address}] = address;
        siteKeys.insert({rank, address});
      }
    };
    detail::FlatIndex<Key, Hash> seenCallers;
    auto addCaller = [&](uint32_t rank, uint64_t address) {
      if (seenCallers.insert({rank, address}, 0).second) {
        canonical[{rank, address}] = address;
        callers.insert({rank, address});
      }
    };
    for (const Message &m : t.messages) {
      if (m.sendSiteKind == 1) add(m.src, m.sendSite);
      if (m.recvSiteKind == 1) add(m.dst, m.recvSite);
      if (m.sendCaller && m.sendSiteKind == 0) addCaller(m.src, m.sendCaller);
      if (m.recvCaller && m.recvSiteKind == 0) addCaller(m.dst, m.recvCaller);
    }
    for (const Group &g : t.groups)
      if (g.createdKnown && g.created.siteKind == 1) add(g.created.rank, g.created.site);
  }
  st.addresses = canonical.size();
  if (canonical.empty()) return st;
  if (!any) {
    st.problem = "the trace has no rank-N.objects (written by tracers since this version)";
    return st;
  }
  // Per object file: the file addresses to ask for.
  std::map<std::string, std::vector<uint64_t>> queries;
  std::map<std::pair<uint32_t, uint64_t>, std::pair<std::string, uint64_t>> located;
  for (auto &[key, id] : canonical) {
    if (key.first >= objects.size()) continue;
    for (const Segment &s : objects[key.first])
      if (key.second >= s.start && key.second < s.end) {
        uint64_t fileAddr = key.second - s.bias - 1; // inside the call instruction
        located[key] = {s.path, fileAddr};
        queries[s.path].push_back(fileAddr);
        break;
      }
  }
  std::map<std::pair<std::string, uint64_t>, std::pair<std::string, std::string>> answers;
  for (auto &[object, addrs] : queries) {
    std::sort(addrs.begin(), addrs.end());
    addrs.erase(std::unique(addrs.begin(), addrs.end()), addrs.end());
    struct stat sb;
    if (stat(object.c_str(), &sb) != 0) {
      st.problem = object + " is gone: sites stay return addresses";
      continue;
    }
    std::vector<std::pair<std::string, std::string>> res;
    if (!locateFileAddresses(object, addrs, res)) {
      st.problem = "neither llvm-symbolizer nor addr2line could read " + object +
                   " (install binutils or llvm)";
      continue;
    }
    for (size_t i = 0; i < addrs.size(); i++) answers[{object, addrs[i]}] = res[i];
  }
  // One id per source line (or function + address without debug info).
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> idOf;
  std::map<std::pair<uint32_t, uint64_t>, std::pair<std::string, SourceLocation>> callerAt;
  for (auto &[key, loc] : located) {
    auto a = answers.find(loc);
    if (a == answers.end()) continue;
    const std::string &fn = a->second.first, &fileLine = a->second.second;
    SourceLocation sl;
    sl.function = fn;
    size_t colon = fileLine.rfind(':');
    std::string text;
    if (colon != std::string::npos && fileLine.compare(0, 2, "??") != 0) {
      sl.file = fileLine.substr(0, colon);
      sl.line = std::atoi(fileLine.c_str() + colon + 1);
      text = sl.file + ":" + std::to_string(sl.line);
    } else {
      char b[64];
      std::snprintf(b, sizeof b, "+0x%" PRIx64, loc.second);
      sl.file = loc.first;
      text = loc.first + b + " " + fn;
    }
    st.resolved++;
    if (callers.count(key)) callerAt[key] = {text, sl};
    if (!siteKeys.count(key)) continue; // a caller only
    uint64_t id = fnv1a(text) | 1; // never 0
    where[id] = sl;
    idOf[key] = id;
  }
  // (wrapper's site, caller's line) -> one site of kind 2: the wrapper's
  // calls from one line are one site, from another line another.
  auto viaCaller = [&](uint32_t rank, uint64_t &site, uint8_t &kind, uint64_t &caller) {
    auto it = callerAt.find({rank, caller});
    if (it == callerAt.end()) return; // unresolved: the wrapper's site alone
    uint64_t id = fnv1a(std::to_string(site) + " via " + it->second.first) | 1;
    SourceLocation &at = where[id];
    at = it->second.second;
    at.wrapperSite = site;
    site = id, kind = 2, caller = 0;
  };
  for (Message &m : t.messages) {
    if (m.sendCaller && m.sendSiteKind == 0) viaCaller(m.src, m.sendSite, m.sendSiteKind, m.sendCaller);
    if (m.recvCaller && m.recvSiteKind == 0) viaCaller(m.dst, m.recvSite, m.recvSiteKind, m.recvCaller);
  }
  for (Message &m : t.messages) {
    if (m.sendSiteKind == 1) {
      auto it = idOf.find({m.src, m.sendSite});
      if (it != idOf.end()) m.sendSite = it->second;
    }
    if (m.recvSiteKind == 1) {
      auto it = idOf.find({m.dst, m.recvSite});
      if (it != idOf.end()) m.recvSite = it->second;
    }
  }
  for (Group &g : t.groups)
    if (g.createdKnown && g.created.siteKind == 1) {
      auto it = idOf.find({g.created.rank, g.created.site});
      if (it != idOf.end()) g.created.site = it->second;
    }
  return st;
}

} // namespace cz::detect
