// site_database.cpp: see site_database.h. A small JSON reader: values are
// parsed generically, then the records' fields the detector uses are
// picked out (unknown fields are ignored, as the format allows).
#include "collectivize/site_database.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

namespace cz::detect {
namespace {

struct Json {
  enum Type { Null, Bool, Number, String, Array, Object } type = Null;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> fields;
  const Json *get(const std::string &k) const {
    auto it = fields.find(k);
    return it == fields.end() ? nullptr : &it->second;
  }
};

class Parser {
public:
  explicit Parser(const std::string &s) : s_(s) {}
  bool parse(Json &out) {
    if (!value(out, 0)) return false;
    space();
    if (i_ != s_.size()) return fail("text after the JSON value");
    return true;
  }
  size_t offset() const { return i_; }
  const std::string &error() const { return error_; }

private:
  bool fail(const std::string &why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  void space() {
    while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) i_++;
  }
  bool literal(const char *w) {
    size_t n = std::strlen(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  bool value(Json &v, int depth) {
    if (depth > 64) return fail("nested too deeply");
    space();
    if (i_ >= s_.size()) return fail("unexpected end of file");
    char c = s_[i_];
    if (c == '{') return object(v, depth);
    if (c == '[') return array(v, depth);
    if (c == '"') {
      v.type = Json::String;
      return string(v.text);
    }
    if (literal("true")) return v.type = Json::Bool, v.boolean = true, true;
    if (literal("false")) return v.type = Json::Bool, v.boolean = false, true;
    if (literal("null")) return v.type = Json::Null, true;
    if (c == '-' || (c >= '0' && c <= '9')) {
      const char *start = s_.c_str() + i_;
      char *end = nullptr;
      v.number = std::strtod(start, &end);
      if (end == start) return fail("bad number");
      i_ += size_t(end - start);
      v.type = Json::Number;
      return true;
    }
    return fail(std::string("unexpected character '") + c + "'");
  }
  bool string(std::string &out) {
    i_++; // opening quote
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) break;
      char e = s_[i_++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        if (i_ + 4 > s_.size()) return fail("bad \\u escape");
        unsigned cp = unsigned(std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16));
        i_ += 4;
        if (cp < 0x80) out += char(cp);
        else if (cp < 0x800) out += char(0xC0 | cp >> 6), out += char(0x80 | (cp & 0x3F));
        else out += char(0xE0 | cp >> 12), out += char(0x80 | (cp >> 6 & 0x3F)),
             out += char(0x80 | (cp & 0x3F));
        break;
      }
      default: out += e;
      }
    }
    if (i_ >= s_.size()) return fail("unterminated string");
    i_++;
    return true;
  }
  bool array(Json &v, int depth) {
    v.type = Json::Array;
    i_++;
    space();
    if (i_ < s_.size() && s_[i_] == ']') return i_++, true;
    for (;;) {
      v.items.emplace_back();
      if (!value(v.items.back(), depth + 1)) return false;
      space();
      if (i_ < s_.size() && s_[i_] == ',') { i_++; continue; }
      if (i_ < s_.size() && s_[i_] == ']') return i_++, true;
      return fail("expected ',' or ']'");
    }
  }
  bool object(Json &v, int depth) {
    v.type = Json::Object;
    i_++;
    space();
    if (i_ < s_.size() && s_[i_] == '}') return i_++, true;
    for (;;) {
      space();
      if (i_ >= s_.size() || s_[i_] != '"') return fail("expected a field name");
      std::string key;
      if (!string(key)) return false;
      space();
      if (i_ >= s_.size() || s_[i_] != ':') return fail("expected ':'");
      i_++;
      if (!value(v.fields[key], depth + 1)) return false;
      space();
      if (i_ < s_.size() && s_[i_] == ',') { i_++; continue; }
      if (i_ < s_.size() && s_[i_] == '}') return i_++, true;
      return fail("expected ',' or '}'");
    }
  }
  const std::string &s_;
  size_t i_ = 0;
  std::string error_;
};

} // namespace

trace::Result<SiteLocations> readSiteDatabase(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return trace::Error{path, -1, std::string("cannot read: ") + std::strerror(errno)};
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  Json root;
  Parser p(text);
  if (!p.parse(root)) return trace::Error{path, int64_t(p.offset()), "not JSON: " + p.error()};
  const Json *format = root.get("format"), *version = root.get("version"), *sites = root.get("sites");
  if (!format || format->text != "collectivize-sites")
    return trace::Error{path, -1, "not a Collectivize site database (format is not \"collectivize-sites\")"};
  if (!version || version->type != Json::Number || version->number > 1)
    return trace::Error{path, -1, "site database version is newer than this detector (1): update Collectivize"};
  if (!sites || sites->type != Json::Array)
    return trace::Error{path, -1, "no \"sites\" array"};
  SiteLocations out;
  for (size_t k = 0; k < sites->items.size(); k++) {
    const Json &r = sites->items[k];
    const Json *id = r.get("id"), *file = r.get("file"), *line = r.get("line"),
               *column = r.get("column"), *callee = r.get("callee"),
               *function = r.get("function");
    if (!id || id->type != Json::String || !file || !line)
      return trace::Error{path, -1, "site record " + std::to_string(k) + " lacks id, file or line"};
    char *end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(id->text.c_str(), &end, 10);
    if (id->text.empty() || *end || errno)
      return trace::Error{path, -1, "site record " + std::to_string(k) + ": id '" + id->text +
                                        "' is not a decimal number"};
    SourceLocation sl;
    sl.file = file->text;
    sl.line = int(line->number);
    sl.column = column ? int(column->number) : 0;
    sl.callee = callee ? callee->text : "";
    sl.function = function && function->type == Json::String ? function->text : "";
    out[uint64_t(v)] = sl;
  }
  return out;
}

} // namespace cz::detect
