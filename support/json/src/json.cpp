// json.cpp: the recursive-descent reader and the writer of json.h.
#include "collectivize/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cz::json {

Json Json::boolean(bool b) {
  Json j;
  j.type_ = Type::Bool;
  j.bool_ = b;
  return j;
}
Json Json::number(double v) {
  Json j;
  j.type_ = Type::Number;
  char buf[32];
  if (!std::isfinite(v)) v = 0;
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.9g", v);
  j.text_ = buf;
  return j;
}
Json Json::numberText(std::string text) {
  Json j;
  j.type_ = Type::Number;
  j.text_ = std::move(text);
  return j;
}
Json Json::string(std::string s) {
  Json j;
  j.type_ = Type::String;
  j.text_ = std::move(s);
  return j;
}
Json Json::array() {
  Json j;
  j.type_ = Type::Array;
  return j;
}
Json Json::object() {
  Json j;
  j.type_ = Type::Object;
  return j;
}

double Json::num(double fallback) const {
  return type_ == Type::Number ? std::strtod(text_.c_str(), nullptr) : fallback;
}
bool Json::integerIn(long long lo, long long hi, long long &out) const {
  if (type_ != Type::Number) return false;
  double v = std::strtod(text_.c_str(), nullptr);
  if (!(v >= double(lo) && v <= double(hi)) || v != std::floor(v) || std::fabs(v) >= 9.0e18)
    return false;
  out = (long long)v;
  return out >= lo && out <= hi;
}
const std::string &Json::str() const {
  static const std::string empty;
  return type_ == Type::String ? text_ : empty;
}
std::string Json::text() const {
  return type_ == Type::String || type_ == Type::Number ? text_ : std::string();
}
bool Json::flag(bool fallback) const { return type_ == Type::Bool ? bool_ : fallback; }

const Json &Json::operator[](const std::string &key) const {
  static const Json null;
  if (type_ == Type::Object)
    for (const auto &m : members_)
      if (m.first == key) return m.second;
  return null;
}
const Json *Json::find(const std::string &key) const {
  if (type_ != Type::Object) return nullptr;
  for (const auto &[k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}
std::string Json::str(const std::string &key, const std::string &otherwise) const {
  const Json *v = find(key);
  return v && v->isString() ? v->text_ : otherwise;
}
double Json::num(const std::string &key, double otherwise) const {
  const Json *v = find(key);
  return v && v->isNumber() ? v->num() : otherwise;
}

bool Json::has(const std::string &key) const {
  if (type_ == Type::Object)
    for (const auto &m : members_)
      if (m.first == key) return true;
  return false;
}
Json &Json::set(const std::string &key, Json value) {
  type_ = Type::Object;
  for (auto &m : members_)
    if (m.first == key) return m.second = std::move(value);
  members_.emplace_back(key, std::move(value));
  return members_.back().second;
}
Json &Json::push(Json value) {
  type_ = Type::Array;
  items_.push_back(std::move(value));
  return items_.back();
}

namespace {

// forPage: '<', '>' and '&' escaped too, so the text can sit in an HTML page.
void dumpString(const std::string &s, std::string &out, bool forPage = true) {
  out += '"';
  for (unsigned char c : s) {
    if (forPage && (c == '<' || c == '>' || c == '&')) {
      // never "</script>" inside the page
      out += c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026";
      continue;
    }
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  out += '"';
}

struct Parser {
  const std::string &s;
  size_t i = 0;
  std::string error;
  int depth = 0;

  bool fail(const std::string &what) {
    if (!error.empty()) return false;
    size_t line = 1, col = 1;
    for (size_t k = 0; k < i && k < s.size(); ++k) {
      if (s[k] == '\n') line++, col = 1;
      else col++;
    }
    error = "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what;
    return false;
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (s.compare(i, n, word) != 0) return fail(std::string("expected ") + word);
    i += n;
    return true;
  }
  static void utf8(unsigned cp, std::string &out) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }
  bool hex4(unsigned &v) {
    if (i + 4 > s.size()) return fail("truncated \\u escape");
    v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    return true;
  }
  bool string(std::string &out) {
    if (i >= s.size() || s[i] != '"') return fail("expected a string");
    i++;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        if ((unsigned char)c < 0x20) return fail("control character in a string");
        out += c;
        continue;
      }
      if (i >= s.size()) break;
      char e = s[i++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        unsigned v;
        if (!hex4(v)) return false;
        if (v >= 0xD800 && v < 0xDC00 && s.compare(i, 2, "\\u") == 0) {
          i += 2;
          unsigned lo;
          if (!hex4(lo)) return false;
          v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        }
        utf8(v, out);
        break;
      }
      default: return fail("bad escape in a string");
      }
    }
    if (i >= s.size()) return fail("unterminated string");
    i++;
    return true;
  }
  bool value(Json &out) {
    if (++depth > 200) return fail("nested too deeply");
    ws();
    if (i >= s.size()) return fail("unexpected end of file");
    char c = s[i];
    bool ok = true;
    if (c == '{') {
      i++;
      out = Json::object();
      ws();
      if (i < s.size() && s[i] == '}') {
        i++;
      } else {
        for (;;) {
          ws();
          std::string key;
          if (!string(key)) return false;
          ws();
          if (i >= s.size() || s[i] != ':') return fail("expected ':'");
          i++;
          Json v;
          if (!value(v)) return false;
          out.set(key, std::move(v));
          ws();
          if (i < s.size() && s[i] == ',') { i++; continue; }
          if (i < s.size() && s[i] == '}') { i++; break; }
          return fail("expected ',' or '}'");
        }
      }
    } else if (c == '[') {
      i++;
      out = Json::array();
      ws();
      if (i < s.size() && s[i] == ']') {
        i++;
      } else {
        for (;;) {
          Json v;
          if (!value(v)) return false;
          out.push(std::move(v));
          ws();
          if (i < s.size() && s[i] == ',') { i++; continue; }
          if (i < s.size() && s[i] == ']') { i++; break; }
          return fail("expected ',' or ']'");
        }
      }
    } else if (c == '"') {
      std::string str;
      ok = string(str);
      out = Json::string(std::move(str));
    } else if (c == 't') {
      ok = literal("true");
      out = Json::boolean(true);
    } else if (c == 'f') {
      ok = literal("false");
      out = Json::boolean(false);
    } else if (c == 'n') {
      ok = literal("null");
      out = Json();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t start = i;
      if (s[i] == '-') i++;
      while (i < s.size() && (isdigit((unsigned char)s[i]) || s[i] == '.' || s[i] == 'e' ||
                              s[i] == 'E' || s[i] == '+' || s[i] == '-'))
        i++;
      std::string t = s.substr(start, i - start);
      char *end = nullptr;
      std::strtod(t.c_str(), &end);
      if (!end || *end) return fail("bad number '" + t + "'");
      out = Json::numberText(t);
    } else {
      return fail(std::string("unexpected character '") + c + "'");
    }
    depth--;
    return ok;
  }
};

} // namespace

void Json::dump(std::string &out) const {
  switch (type_) {
  case Type::Null: out += "null"; break;
  case Type::Bool: out += bool_ ? "true" : "false"; break;
  case Type::Number: out += text_; break;
  case Type::String: dumpString(text_, out); break;
  case Type::Array:
    out += '[';
    for (size_t k = 0; k < items_.size(); ++k) {
      if (k) out += ',';
      items_[k].dump(out);
    }
    out += ']';
    break;
  case Type::Object:
    out += '{';
    for (size_t k = 0; k < members_.size(); ++k) {
      if (k) out += ',';
      dumpString(members_[k].first, out);
      out += ':';
      members_[k].second.dump(out);
    }
    out += '}';
    break;
  }
}

void Json::dumpReadable(const Expand &expand, int depth, const std::string &key,
                        std::string &out) const {
  bool isContainer = type_ == Type::Array || type_ == Type::Object;
  if (!isContainer || size() == 0) {
    if (type_ == Type::String) dumpString(text_, out, false);
    else if (type_ == Type::Array) out += "[]";
    else if (type_ == Type::Object) out += "{}";
    else dump(out);
    return;
  }
  // One member per line, or all on this one (and so everything inside).
  bool lines = expand && expand(depth, key);
  const Expand none;
  std::string inner = lines ? ",\n" + std::string(size_t(2 * (depth + 1)), ' ') : ", ";
  out += type_ == Type::Array ? '[' : '{';
  if (lines) out += inner.substr(1);
  for (size_t k = 0; k < size(); ++k) {
    if (k) out += inner;
    if (type_ == Type::Array) {
      items_[k].dumpReadable(lines ? expand : none, depth + 1, "", out);
    } else {
      dumpString(members_[k].first, out, false);
      out += ": ";
      members_[k].second.dumpReadable(lines ? expand : none, depth + 1, members_[k].first, out);
    }
  }
  if (lines) out += "\n" + std::string(size_t(2 * depth), ' ');
  out += type_ == Type::Array ? ']' : '}';
}

std::string Json::dumpReadable(const Expand &expand) const {
  std::string out;
  dumpReadable(expand, 0, "", out);
  return out;
}

std::string Json::dump() const {
  std::string out;
  dump(out);
  return out;
}

bool parseJson(const std::string &text, Json &out, std::string &error) {
  Parser p{text, 0, std::string(), 0};
  Json v;
  if (!p.value(v)) {
    error = p.error;
    return false;
  }
  p.ws();
  if (p.i != text.size()) {
    p.fail("unexpected text after the JSON value");
    error = p.error;
    return false;
  }
  out = std::move(v);
  return true;
}

bool readJsonFile(const std::string &path, Json &out, std::string &error) {
  std::ifstream f(path, std::ios::binary);
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
  std::string out;
  dumpString(s, out);
  return out;
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

} // namespace cz::json
