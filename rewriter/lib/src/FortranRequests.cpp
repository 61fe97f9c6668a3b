// FortranRequests.cpp: see FortranRequests.h.
#include "FortranRequests.h"

#include <cctype>
#include <regex>

#include "FortranText.h"

namespace cz::rewrite::fortran {
namespace {

bool fail(std::string &why, const std::string &text) {
  why = text;
  return false;
}

std::string at(const IsendLoop &l, size_t line) { return l.file + ":" + std::to_string(line); }

// The first dimension's lower bound of `name` as a declaration in the unit
// gives it (`integer :: reqs(7)`, `integer reqs(1:n)`,
// `integer, dimension(0:7) :: reqs`): "1" when no bound is written, ""
// when no declaration shows it (deferred or assumed shape included).
std::string lowerBound(const IsendLoop &l, const std::string &name) {
  static const std::regex dimension("dimension\\s*\\(([^)]*)\\)", std::regex::icase);
  for (size_t k = l.unitFirst; k <= l.unitLast; k++) {
    std::string code = codeOf(*l.lines, k, l.fixed);
    if (!isDeclaration(code) || !mentions(code, name)) continue;
    std::string dims;
    std::smatch m;
    std::string low = norm(code), n = norm(name);
    size_t after = low.find(n + "(");
    // The name itself followed by '(' (not a longer name ending in it).
    while (after != std::string::npos && after > 0 && (std::isalnum((unsigned char)low[after - 1]) || low[after - 1] == '_'))
      after = low.find(n + "(", after + 1);
    if (after != std::string::npos) {
      size_t open = after + n.size(), close = low.find(')', open);
      if (close == std::string::npos) return "";
      dims = low.substr(open + 1, close - open - 1);
    } else if (std::regex_search(code, m, dimension)) {
      dims = norm(m[1]);
    } else {
      return "";
    }
    std::string first = dims.substr(0, dims.find(','));
    size_t colon = first.find(':');
    if (colon == std::string::npos) return first.empty() ? "" : "1";
    return first.substr(0, colon);
  }
  return "";
}

// Lines of the unit outside the block, its declarations aside, naming `name`.
size_t usedOutsideBlock(const IsendLoop &l, const std::string &name) {
  for (size_t k = l.unitFirst; k <= l.unitLast; k++) {
    if (k + 1 >= l.blockFirst && k + 1 <= l.blockLast) continue;
    std::string code = codeOf(*l.lines, k, l.fixed);
    if (mentions(code, name) && !isDeclaration(code)) return k + 1;
  }
  return 0;
}

} // namespace

bool isWaitallStatement(const Statement &s) {
  static const std::regex waitall("^call\\s+mpi_waitall\\s*\\(.*", std::regex::icase);
  return s.shape == Shape::Call && std::regex_match(s.code, waitall);
}

bool waitallCompletesLoop(const IsendLoop &l, std::string &note, std::string &why) {
  const std::string &v = l.loop->var;
  if (!l.waitall)
    return fail(why, "the loop's MPI_Isend requests are not completed by an MPI_Waitall right after the loop "
                     "in the root's branch: the patch would not know when the sends end");
  static const std::regex element("^([a-z_][a-z0-9_]*)\\(([a-z_][a-z0-9_]*)\\)$");
  std::smatch m;
  std::string request = norm(l.request);
  if (!std::regex_match(request, m, element) || m[2] != norm(v))
    return fail(why, "the MPI_Isend's request `" + l.request + "` is not an element of an array indexed by the "
                     "loop variable `" + v + "`");
  std::string array = m[1];
  if (l.guarded)
    return fail(why, "the loop skips the root with an `if`: the root's element of `" + array + "` is set by "
                     "no MPI_Isend, and the MPI_Waitall cannot be shown to complete the loop's requests only");
  FortranCall wait;
  if (!fortranCallAt(*l.source, l.waitall->line, l.fixed, wait) || (wait.args.size() != 3 && wait.args.size() != 4))
    return fail(why, "the MPI_Waitall at " + at(l, l.waitall->line) + " does not read as a call with MPI's arguments");
  // Unguarded, the loop is `do v = 1, size - 1` (the root 0 skipped):
  // size - 1 requests from `array(1)`.
  std::string lo = norm(l.loop->lo), count = norm(l.size + "-1");
  if (norm(wait.args[0]) != count)
    return fail(why, "the MPI_Waitall at " + at(l, l.waitall->line) + " completes `" + wait.args[0] +
                     "` requests; the loop starts `" + l.size + " - 1`");
  std::string first = norm(wait.args[1]);
  // `reqs(1)` (mpif.h), `reqs(1:)`, `reqs(1:p-1)`, or `reqs` declared from 1.
  bool fromFirst = first == array + "(" + lo + ")" || first == array + "(" + lo + ":)" ||
                   first == array + "(" + lo + ":" + count + ")" || (first == array && lowerBound(l, array) == lo);
  if (!fromFirst)
    return fail(why, "the MPI_Waitall at " + at(l, l.waitall->line) + " completes the requests from `" +
                     wait.args[1] + "`, which is not shown to be `" + array + "(" + lo + ")`, the loop's first");
  std::string statuses = norm(wait.args[2]);
  if (statuses != "mpi_statuses_ignore") {
    if (!isName(statuses))
      return fail(why, "the MPI_Waitall's statuses `" + wait.args[2] + "` are not a variable this reader can follow");
    if (size_t used = usedOutsideBlock(l, statuses))
      return fail(why, "the MPI_Waitall's statuses `" + wait.args[2] + "` are used at " + at(l, used) +
                       ": after the patch they would hold nothing");
  }
  if (size_t used = usedOutsideBlock(l, array))
    return fail(why, "the request array `" + array + "` is used at " + at(l, used) +
                     ": after the patch it would not hold the loop's requests");
  note = "the MPI_Waitall at " + at(l, l.waitall->line) + " completes exactly the loop's requests (`" + array +
         "(" + lo + ")` on, `" + wait.args[0] + "` of them) and goes with them; `" + array +
         "` is used nowhere else in the unit";
  return true;
}

} // namespace cz::rewrite::fortran
