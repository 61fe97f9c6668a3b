// json.cpp: see json.h. A recursive-descent reader bounded in depth, so a
// hostile file cannot overflow the stack.
#include "json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cz::verify {
namespace {

struct Reader {
  const std::string &s;
  size_t i = 0;
  std::string error;

  bool fail(const std::string &what) {
    if (error.empty()) {
      size_t line = 1, col = 1;
      for (size_t k = 0; k < i && k < s.size(); k++) {
        if (s[k] == '\n') line++, col = 1;
        else col++;
      }
      error = what + " at line " + std::to_string(line) + ", column " + std::to_string(col);
    }
    return false;
  }
  void space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (s.compare(i, n, word) != 0) return fail("unexpected text");
    i += n;
    return true;
  }
  static void utf8(std::string &o, unsigned cp) {
    if (cp < 0x80) {
      o += char(cp);
    } else if (cp < 0x800) {
      o += char(0xc0 | (cp >> 6)), o += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      o += char(0xe0 | (cp >> 12)), o += char(0x80 | ((cp >> 6) & 0x3f));
      o += char(0x80 | (cp & 0x3f));
    } else {
      o += char(0xf0 | (cp >> 18)), o += char(0x80 | ((cp >> 12) & 0x3f));
      o += char(0x80 | ((cp >> 6) & 0x3f)), o += char(0x80 | (cp & 0x3f));
    }
  }
  bool hex4(unsigned &v) {
    if (i + 4 > s.size()) return fail("short \\u escape");
    v = 0;
    for (int k = 0; k < 4; k++) {
      char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    return true;
  }
  bool string(std::string &o) {
    i++; // opening quote
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        o += c;
        continue;
      }
      if (i >= s.size()) break;
      char e = s[i++];
      switch (e) {
      case '"': o += '"'; break;
      case '\\': o += '\\'; break;
      case '/': o += '/'; break;
      case 'b': o += '\b'; break;
      case 'f': o += '\f'; break;
      case 'n': o += '\n'; break;
      case 'r': o += '\r'; break;
      case 't': o += '\t'; break;
      case 'u': {
        unsigned cp;
        if (!hex4(cp)) return false;
        if (cp >= 0xd800 && cp < 0xdc00 && s.compare(i, 2, "\\u") == 0) {
          i += 2;
          unsigned lo;
          if (!hex4(lo)) return false;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
        utf8(o, cp);
        break;
      }
      default: return fail("bad escape");
      }
    }
    if (i >= s.size()) return fail("unterminated string");
    i++;
    return true;
  }
  bool value(Json &v, int depth) {
    if (depth > 64) return fail("nesting too deep");
    space();
    if (i >= s.size()) return fail("unexpected end");
    char c = s[i];
    if (c == '{') {
      v.type = Json::Type::Object;
      i++;
      space();
      if (i < s.size() && s[i] == '}') return i++, true;
      for (;;) {
        space();
        if (i >= s.size() || s[i] != '"') return fail("expected a key");
        std::string key;
        if (!string(key)) return false;
        space();
        if (i >= s.size() || s[i] != ':') return fail("expected ':'");
        i++;
        v.members.emplace_back(std::move(key), Json());
        if (!value(v.members.back().second, depth + 1)) return false;
        space();
        if (i < s.size() && s[i] == ',') {
          i++;
          continue;
        }
        if (i < s.size() && s[i] == '}') return i++, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.type = Json::Type::Array;
      i++;
      space();
      if (i < s.size() && s[i] == ']') return i++, true;
      for (;;) {
        v.items.emplace_back();
        if (!value(v.items.back(), depth + 1)) return false;
        space();
        if (i < s.size() && s[i] == ',') {
          i++;
          continue;
        }
        if (i < s.size() && s[i] == ']') return i++, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.type = Json::Type::String;
      return string(v.text);
    }
    if (c == 't') return v.type = Json::Type::Bool, v.boolean = true, literal("true");
    if (c == 'f') return v.type = Json::Type::Bool, v.boolean = false, literal("false");
    if (c == 'n') return v.type = Json::Type::Null, literal("null");
    size_t start = i;
    if (c == '-') i++;
    while (i < s.size() && (isdigit((unsigned char)s[i]) || s[i] == '.' || s[i] == 'e' ||
                            s[i] == 'E' || s[i] == '+' || s[i] == '-'))
      i++;
    if (i == start) return fail("unexpected character");
    v.type = Json::Type::Number;
    v.text = s.substr(start, i - start);
    char *end = nullptr;
    v.number = std::strtod(v.text.c_str(), &end);
    if (!end || *end) return fail("bad number");
    return true;
  }
};

} // namespace

const Json *Json::find(const std::string &key) const {
  if (type != Type::Object) return nullptr;
  for (const auto &[k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

std::string Json::str(const std::string &key, const std::string &otherwise) const {
  const Json *v = find(key);
  return v && v->type == Type::String ? v->text : otherwise;
}

double Json::num(const std::string &key, double otherwise) const {
  const Json *v = find(key);
  return v && v->type == Type::Number ? v->number : otherwise;
}

bool parseJson(const std::string &text, Json &out, std::string &error) {
  Reader r{text, 0, {}};
  out = Json();
  if (!r.value(out, 0)) {
    error = r.error;
    return false;
  }
  r.space();
  if (r.i != text.size()) {
    r.fail("text after the JSON value");
    error = r.error;
    return false;
  }
  return true;
}

bool readJsonFile(const std::string &path, Json &out, std::string &error) {
  std::ifstream f(path);
  if (!f) {
    error = path + ": cannot read";
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  if (!parseJson(ss.str(), out, error)) {
    error = path + ": not valid JSON: " + error;
    return false;
  }
  return true;
}

std::string jsonQuote(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\t': o += "\\t"; break;
    case '\r': o += "\\r"; break;
    default:
      if (c < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        o += b;
      } else {
        o += char(c);
      }
    }
  }
  return o + "\"";
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

} // namespace cz::verify
