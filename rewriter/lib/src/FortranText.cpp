// FortranText.cpp: see FortranText.h.
#include "FortranText.h"

#include <cctype>
#include <sstream>

#include "llvm/Support/Path.h"

namespace cz::rewrite {
namespace {

std::string trim(llvm::StringRef s) { return s.trim().str(); }

bool fixedComment(const std::string &l) {
  return !l.empty() && (l[0] == 'c' || l[0] == 'C' || l[0] == '*' || l[0] == '!');
}
bool fixedContinuation(const std::string &l) {
  if (l.size() < 6 || fixedComment(l) || l[5] == ' ' || l[5] == '0') return false;
  return l.find_first_not_of(' ') == 5;
}

} // namespace

bool isFixedFormComment(const std::string &l) { return fixedComment(l); }

std::string fortranStatementAt(const std::vector<std::string> &lines, size_t i, bool fixed, size_t &first,
                               size_t &last) {
  first = last = i;
  std::string joined;
  // Comment and blank lines may stand between a statement's lines.
  auto noCode = [&](size_t k) {
    return trim(lines[k]).empty() || (fixed ? fixedComment(lines[k]) : trim(fortranCode(lines[k])).empty());
  };
  auto previousCode = [&](size_t k, size_t &out) {
    while (k-- > 0)
      if (!noCode(k)) {
        out = k;
        return true;
      }
    return false;
  };
  auto continues = [&](size_t k) { // free form: line k goes on in the next
    std::string c = trim(fortranCode(lines[k]));
    return !c.empty() && c.back() == '&';
  };
  if (noCode(i)) return "";
  for (size_t p; fixed ? fixedContinuation(lines[first]) : true;) {
    if (!previousCode(first, p) || (!fixed && !continues(p))) break;
    first = p;
  }
  for (size_t k = last + 1; k < lines.size(); k++) {
    if (noCode(k)) continue;
    if (fixed ? !fixedContinuation(lines[k]) : !continues(last)) break;
    last = k;
  }
  if (fixed) {
    for (size_t k = first; k <= last; k++) {
      const std::string &l = lines[k];
      if (fixedComment(l) || l.size() <= 6) continue;
      joined += fortranCode(l.substr(6, 66)); // columns 7-72
    }
    return joined;
  }
  for (size_t k = first; k <= last; k++) {
    std::string c = trim(fortranCode(lines[k]));
    if (!c.empty() && c.back() == '&') c.pop_back();
    if (!c.empty() && c.front() == '&') c.erase(0, 1);
    joined += c + " ";
  }
  return joined;
}

bool isFortranSource(llvm::StringRef path) {
  std::string ext = llvm::sys::path::extension(path).lower();
  for (const char *e : {".f", ".for", ".ftn", ".f77", ".f90", ".f95", ".f03", ".f08"})
    if (ext == e) return true;
  return false;
}

bool isFixedFormSource(llvm::StringRef path) {
  std::string ext = llvm::sys::path::extension(path).lower();
  return ext == ".f" || ext == ".for" || ext == ".ftn" || ext == ".f77";
}

std::vector<std::string> sourceLines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string fortranCode(const std::string &line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); i++) {
    char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '!') {
      return line.substr(0, i);
    }
  }
  return line;
}

bool splitFortranArguments(const std::string &s, size_t open, std::vector<std::string> &args) {
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (size_t i = open; i < s.size(); i++) {
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      if (depth++ == 0) continue;
    } else if (c == ')' || c == ']') {
      if (--depth == 0) {
        if (!trim(cur).empty() || !args.empty()) args.push_back(trim(cur));
        return true;
      }
    } else if (c == ',' && depth == 1) {
      args.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  return false;
}

bool fortranCallAt(const std::string &source, unsigned line, bool fixed, FortranCall &out) {
  std::vector<std::string> lines = sourceLines(source);
  if (line == 0 || line > lines.size()) return false;
  size_t first = 0, last = 0;
  std::string stmt = fortranStatementAt(lines, line - 1, fixed, first, last);
  std::string low = llvm::StringRef(stmt).lower();
  for (size_t at = low.find("call"); at != std::string::npos; at = low.find("call", at + 4)) {
    if (at > 0 && (std::isalnum((unsigned char)low[at - 1]) || low[at - 1] == '_')) continue;
    size_t name = low.find_first_not_of(" \t", at + 4);
    if (name == std::string::npos || name == at + 4 || low.compare(name, 4, "mpi_") != 0) continue;
    size_t end = name;
    while (end < low.size() && (std::isalnum((unsigned char)low[end]) || low[end] == '_')) end++;
    size_t open = low.find_first_not_of(" \t", end);
    if (open == std::string::npos || low[open] != '(') continue;
    out.args.clear();
    if (!splitFortranArguments(stmt, open, out.args)) return false;
    out.name = stmt.substr(name, end - name);
    out.firstLine = unsigned(first + 1);
    out.lastLine = unsigned(last + 1);
    out.text.clear();
    for (size_t k = first; k <= last; k++) out.text += lines[k] + "\n";
    return true;
  }
  return false;
}

} // namespace cz::rewrite
