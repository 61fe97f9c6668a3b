// FortranStatements.cpp: see FortranStatements.h.
#include "FortranStatements.h"

#include <cctype>
#include <regex>

#include "FortranText.h"
#include "llvm/ADT/StringRef.h"

namespace cz::rewrite::fortran {
namespace {
std::string trim(llvm::StringRef s) { return s.trim().str(); }
} // namespace

// An expression compared as Fortran does: case and blanks do not count.
std::string norm(const std::string &e) {
  std::string o;
  for (char c : e)
    if (!std::isspace((unsigned char)c)) o += char(std::tolower((unsigned char)c));
  return o;
}

bool isName(const std::string &e) {
  static const std::regex name("[a-z_][a-z0-9_]*", std::regex::icase);
  return std::regex_match(e, name);
}
bool isRootExpression(const std::string &e) {
  static const std::regex literal("[0-9]+");
  return isName(e) || std::regex_match(e, literal);
}

// Whether `code` names `word` (a whole identifier, any case).
bool mentions(const std::string &code, const std::string &word) {
  std::string c = llvm::StringRef(code).lower(), w = norm(word);
  for (size_t at = c.find(w); at != std::string::npos; at = c.find(w, at + 1)) {
    auto part = [](char ch) { return std::isalnum((unsigned char)ch) || ch == '_' || ch == '%'; };
    bool before = at > 0 && part(c[at - 1]), after = at + w.size() < c.size() && part(c[at + w.size()]);
    if (!before && !after) return true;
  }
  return false;
}

// A type declaration statement (`integer :: q`, `integer q, st(...)`).
bool isDeclaration(const std::string &code) {
  static const std::regex decl("^(integer|real|double\\s*precision|logical|character|complex|type\\s*\\().*",
                               std::regex::icase);
  return code.find("::") != std::string::npos || std::regex_match(trim(code), decl);
}



namespace {
// The parenthesised condition after `if` at the start of `code`; the rest
// after its ')' in `rest`.
bool ifCondition(const std::string &code, std::string &condition, std::string &rest) {
  static const std::regex head("^if\\s*\\(", std::regex::icase);
  std::smatch m;
  if (!std::regex_search(code, m, head)) return false;
  size_t open = size_t(m.length(0)) - 1;
  int depth = 0;
  for (size_t i = open; i < code.size(); i++) {
    if (code[i] == '(') depth++;
    if (code[i] == ')' && --depth == 0) {
      condition = trim(code.substr(open + 1, i - open - 1));
      rest = trim(code.substr(i + 1));
      return true;
    }
  }
  return false;
}
} // namespace

// The statement holding line k (0-based) of `lines`, continuation lines
// joined.
Statement classify(const std::vector<std::string> &lines, size_t k, bool fixed) {
  Statement s;
  size_t first = 0, last = 0;
  s.code = trim(fortranStatementAt(lines, k, fixed, first, last));
  s.line = unsigned(first + 1);
  s.lastLine = unsigned(last + 1);
  bool blank = true;
  for (size_t i = first; i <= last; i++) {
    const std::string &raw = lines[i];
    if (!trim(raw).empty()) blank = false;
    // Fixed form: a comment line, a `!` comment in columns 7-72, or text
    // past column 72 (ignored by the compiler, often sequence numbers).
    std::string code = fixed ? (raw.size() > 6 ? raw.substr(6, 66) : "") : raw;
    bool wholeLine = fixed ? isFixedFormComment(raw) : trim(fortranCode(raw)).empty();
    bool trailing = trim(fortranCode(code)) != trim(code) || (fixed && raw.size() > 72 && !trim(raw.substr(72)).empty());
    if (!trim(raw).empty() && (wholeLine || trailing)) {
      s.why = wholeLine ? "a comment, which the patch would drop"
                        : "a comment after the code, which the patch would drop";
      return s;
    }
  }
  static const std::regex digits("[0-9]{1,5}"), freeLabel("([0-9]{1,5})\\s+(.*)");
  std::smatch lm;
  if (fixed) {
    s.label = trim(lines[first].substr(0, std::min<size_t>(5, lines[first].size())));
    if (!s.label.empty() && !std::regex_match(s.label, digits)) {
      s.why = "text in the label field (columns 1-5) that is not a label";
      return s;
    }
  } else if (std::regex_match(s.code, lm, freeLabel)) {
    s.label = lm[1];
    s.code = trim(lm[2].str());
  }
  if (s.code.empty()) {
    s.shape = blank ? Shape::Blank : Shape::Other;
    if (s.shape == Shape::Other) s.why = "a comment, which the patch would drop";
    return s;
  }
  if (s.code.front() == '&') {
    s.why = "a continuation line this reader cannot join to its statement (a comment between the lines?)";
    return s;
  }
  if (s.code.find(';') != std::string::npos) {
    s.why = "several statements on one line (`;`)";
    return s;
  }
  static const std::regex elseRe("else", std::regex::icase), endIfRe("end\\s*if", std::regex::icase),
      endDoRe("end\\s*do", std::regex::icase), callRe("call\\s+mpi_\\w+\\s*\\(.*\\)", std::regex::icase),
      doRe("do\\s+(([0-9]+)\\s*,?\\s*)?([a-z_][a-z0-9_]*)\\s*=\\s*([^,]+),([^,]+)", std::regex::icase),
      thenRe("then", std::regex::icase), continueRe("continue", std::regex::icase),
      assignRe("([a-z_][a-z0-9_]*)\\s*(\\(.*\\))?\\s*=[^=>].*", std::regex::icase),
      outputRe("(print|write)\\b.*", std::regex::icase);
  std::smatch m;
  std::string condition, rest;
  // A label ends a labelled DO (`20 continue`, `20 end do`), and nothing
  // else in the pattern: another labelled statement may be jumped to.
  if (!s.label.empty()) {
    if (std::regex_match(s.code, continueRe) || std::regex_match(s.code, endDoRe)) s.shape = Shape::EndDo;
    else s.why = "a statement label (" + s.label + "), which the patch would drop";
    return s;
  }
  if (std::regex_match(s.code, elseRe)) s.shape = Shape::Else;
  else if (std::regex_match(s.code, endIfRe)) s.shape = Shape::EndIf;
  else if (std::regex_match(s.code, endDoRe)) s.shape = Shape::EndDo;
  else if (std::regex_match(s.code, callRe)) s.shape = Shape::Call;
  else if (std::regex_match(s.code, m, doRe)) {
    s.shape = Shape::Do;
    s.doLabel = m[2];
    s.var = m[3];
    s.lo = trim(m[4].str());
    s.hi = trim(m[5].str());
  } else if (ifCondition(s.code, condition, rest)) {
    s.condition = condition;
    if (std::regex_match(rest, thenRe)) s.shape = Shape::IfThen;
    else if (std::regex_match(rest, callRe)) s.shape = Shape::GuardedCall;
    else s.why = "an if statement that is not `if (...) then` nor a guarded call";
  } else if (std::regex_match(s.code, m, assignRe)) {
    s.shape = Shape::Simple;
    s.var = m[1];
  } else if (std::regex_match(s.code, outputRe)) {
    s.shape = Shape::Simple;
  } else {
    s.why = "another statement";
  }
  return s;
}

// `a OP b` with OP one of `ops` (e.g. "==", ".eq."): the operands.
bool comparison(const std::string &cond, std::initializer_list<const char *> ops, std::string &a,
                std::string &b) {
  std::string c = norm(cond);
  for (const char *op : ops) {
    size_t at = c.find(op);
    if (at == std::string::npos || c.find(op, at + 1) != std::string::npos) continue;
    a = c.substr(0, at);
    b = c.substr(at + std::string(op).size());
    return isRootExpression(a) && isRootExpression(b);
  }
  return false;
}

// Line k's code as written, comment dropped; in fixed form its columns
// 1-5 (a label) and 7-72, a comment line empty.
std::string codeOf(const std::vector<std::string> &lines, size_t k, bool fixed) {
  const std::string &l = lines[k];
  if (!fixed) return fortranCode(l);
  if (isFixedFormComment(l)) return "";
  std::string label = l.substr(0, std::min<size_t>(5, l.size()));
  return label + " " + (l.size() > 6 ? fortranCode(l.substr(6, 66)) : "");
}

// The program unit (program, subroutine, function) holding line `at`
// (0-based): [first, last] lines, its end `end`, `contains` or the file's.
void unitAround(const std::vector<std::string> &lines, bool fixed, size_t at, size_t &first, size_t &last) {
  static const std::regex head("^(\\w+\\s+)*(program|subroutine|function)\\s+\\w+.*", std::regex::icase),
      tail("^(end(\\s*(program|subroutine|function)(\\s+\\w+)?)?|contains)$", std::regex::icase),
      endHead("^end\\b.*", std::regex::icase);
  first = 0;
  for (size_t k = at + 1; k-- > 0;) {
    std::string c = trim(codeOf(lines, k, fixed));
    if (std::regex_match(c, head) && !std::regex_match(c, endHead)) {
      first = k;
      break;
    }
  }
  last = lines.size() - 1;
  for (size_t k = at; k < lines.size(); k++)
    if (std::regex_match(trim(codeOf(lines, k, fixed)), tail)) {
      last = k;
      break;
    }
}

} // namespace cz::rewrite::fortran
