// manifest.cpp: the trace manifest (collectivize-trace.txt): "key value"
// lines, read and checked.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "collectivize/trace_reader.h"
#include "collectivize_trace_format.h"
#include "otf2_validate.h"

namespace cz::trace {

namespace detail {

// "key value" lines. Unknown keys are kept; a malformed known value is an
// error at its line's offset.
Result<Manifest> readManifest(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path, -1, std::string("cannot read: ") + std::strerror(errno)};
  std::stringstream text;
  text << file.rdbuf();
  return parseManifest(text.str(), path);
}

Result<Manifest> parseManifest(const std::string &text, const std::string &path) {
  std::istringstream in(text);
  Manifest m;
  std::string line;
  int64_t offset = 0;
  bool sawFormat = false;
  while (std::getline(in, line)) {
    int64_t lineOffset = offset;
    offset += int64_t(line.size()) + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    for (unsigned char c : line)
      if (c < 0x20 && c != '\t')
        return Error{path, lineOffset, "binary data in the manifest (not a Collectivize trace manifest)"};
    size_t sp = line.find_first_of(" \t");
    std::string key = line.substr(0, sp);
    std::string value = sp == std::string::npos ? "" : line.substr(line.find_first_not_of(" \t", sp) == std::string::npos ? line.size() : line.find_first_not_of(" \t", sp));
    auto number = [&](int64_t &out) -> bool {
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end || errno) return false;
      out = v;
      return true;
    };
    int64_t v = 0;
    if (key == "format") {
      if (!number(v) || v < 1) return Error{path, lineOffset, "format: '" + value + "' is not a version number"};
      if (v > CZ_TRACE_FORMAT_VERSION)
        return Error{path, lineOffset,
                     "trace format " + std::to_string(v) + " is newer than this reader (" +
                         std::to_string(CZ_TRACE_FORMAT_VERSION) + "): update Collectivize"};
      m.format = int(v);
      sawFormat = true;
    } else if (key == "ranks") {
      if (!number(v) || v < 1 || v > (1 << 24))
        return Error{path, lineOffset, "ranks: '" + value + "' is not a process count"};
      m.ranks = int(v);
    } else if (key == "started") {
      if (!number(v)) return Error{path, lineOffset, "started: '" + value + "' is not a unix time"};
      m.started = v;
    } else if (key == "command") {
      m.command = value;
    } else if (key == "sites") {
      if (!value.empty()) m.sitesDatabases.push_back(value);
    } else {
      m.other[key] = value;
    }
  }
  if (!sawFormat) return Error{path, 0, "no 'format' line: not a Collectivize trace manifest"};
  return m;
}

} // namespace detail

Result<Manifest> readTraceManifest(const std::string &dir) {
  return detail::readManifest(dir + "/" CZ_TRACE_MANIFEST);
}

} // namespace cz::trace
