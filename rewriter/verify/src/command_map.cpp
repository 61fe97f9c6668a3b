// command_map.cpp: see command_map.h.
#include "command_map.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace cz::verify {
namespace {

bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

bool inside(const std::string &path, const std::string &dir) {
  if (dir == "/") return true;
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         path[dir.size()] == '/');
}

// The mapped form of one path-like text, or "" when it is not in a map.
std::string mapOne(const std::string &text, const std::vector<PathMap> &maps,
                   const std::string &cwd) {
  if (text.empty()) return "";
  if (text.find('/') == std::string::npos && !exists(cwd + "/" + text)) return "";
  return mapPath(absolutePath(text, cwd), maps);
}

} // namespace

std::string absolutePath(const std::string &path, const std::string &cwd) {
  std::filesystem::path p(path);
  if (p.is_relative()) p = std::filesystem::path(cwd) / p;
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string mapPath(const std::string &path, const std::vector<PathMap> &maps) {
  const PathMap *best = nullptr;
  for (const PathMap &m : maps)
    if (inside(path, m.from) && (!best || m.from.size() > best->from.size())) best = &m;
  if (!best) return "";
  if (best->from == "/") return best->to + path;
  return best->to + path.substr(best->from.size());
}

std::string mapScript(const std::string &script, const std::vector<PathMap> &maps) {
  // Longest `from` first, so a build directory inside the project wins.
  std::vector<const PathMap *> order;
  for (const PathMap &m : maps)
    if (m.from.size() > 1) order.push_back(&m);
  std::sort(order.begin(), order.end(), [](const PathMap *a, const PathMap *b) { return a->from.size() > b->from.size(); });
  std::string out;
  for (size_t i = 0; i < script.size();) {
    // Only at the start of a word or after a quote, '=' or ':'.
    bool wordStart = i == 0 || std::string(" \t\n'\"=:(;&|").find(script[i - 1]) != std::string::npos;
    const PathMap *hit = nullptr;
    if (wordStart && script[i] == '/')
      for (const PathMap *m : order) {
        size_t n = m->from.size();
        if (script.compare(i, n, m->from) != 0) continue;
        char next = i + n < script.size() ? script[i + n] : ' ';
        if (std::string("/ \t\n'\";:)&|").find(next) != std::string::npos) {
          hit = m;
          break;
        }
      }
    if (hit) {
      out += hit->to;
      i += hit->from.size();
    } else {
      out += script[i++];
    }
  }
  return out;
}

std::vector<std::string> mapCommand(const std::vector<std::string> &command,
                                    const std::vector<PathMap> &maps, const std::string &cwd,
                                    std::vector<std::string> *notes) {
  std::vector<std::string> out;
  for (const std::string &arg : command) {
    // An option ("-x", "--out=PATH") or an assignment ("VAR=PATH") is not a
    // path itself; its value may be.
    size_t eq = arg.find('=');
    bool assignment = eq != std::string::npos && eq > 0 &&
                      arg.find('/') > eq;
    std::string mapped;
    if (arg.find_first_of(" \t\n") != std::string::npos) {
      std::string script = mapScript(arg, maps);
      if (script != arg) mapped = script;
    } else if (assignment) {
      std::string value = mapOne(arg.substr(eq + 1), maps, cwd);
      if (!value.empty()) mapped = arg.substr(0, eq + 1) + value;
    } else if (arg.empty() || arg[0] != '-') {
      mapped = mapOne(arg, maps, cwd);
    }
    if (!mapped.empty() && notes) notes->push_back(arg + " -> " + mapped);
    out.push_back(mapped.empty() ? arg : mapped);
  }
  return out;
}

} // namespace cz::verify
