// FortranSuggestion.cpp: the Fortran call suggested for a match whose sites
// are in a Fortran file (see FortranSuggestion.h). The source is read as
// text: statements (free form: `&` continuations; fixed form: column 6),
// the `call MPI_...(...)` on a site's line, its arguments split at
// top-level commas, and the collective's arguments picked by position.
#include "FortranSuggestion.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "llvm/Support/Path.h"

namespace cz::rewrite {
namespace {

std::string lower(llvm::StringRef s) { return s.lower(); }

std::string trim(llvm::StringRef s) { return s.trim().str(); }

bool isFixedForm(llvm::StringRef path) {
  std::string ext = lower(llvm::sys::path::extension(path));
  return ext == ".f" || ext == ".for" || ext == ".ftn" || ext == ".f77";
}

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The code of a line without its `!` comment (quotes respected).
std::string codeOf(const std::string &line) {
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

bool fixedComment(const std::string &l) {
  return !l.empty() && (l[0] == 'c' || l[0] == 'C' || l[0] == '*' || l[0] == '!');
}
bool fixedContinuation(const std::string &l) {
  if (l.size() < 6 || fixedComment(l) || l[5] == ' ' || l[5] == '0') return false;
  return l.find_first_not_of(' ') == 5;
}

// Lines [first, last] (0-based) of the statement holding line i, and its
// code joined into one line.
std::string statementAt(const std::vector<std::string> &lines, size_t i, bool fixed, size_t &first,
                        size_t &last) {
  first = last = i;
  std::string joined;
  if (fixed) {
    while (first > 0 && fixedContinuation(lines[first])) first--;
    while (last + 1 < lines.size() && fixedContinuation(lines[last + 1])) last++;
    for (size_t k = first; k <= last; k++) {
      const std::string &l = lines[k];
      if (fixedComment(l) || l.size() <= 6) continue;
      joined += codeOf(l.substr(6, 66)); // columns 7-72
    }
    return joined;
  }
  auto continues = [&](size_t k) {
    std::string c = trim(codeOf(lines[k]));
    return !c.empty() && c.back() == '&';
  };
  while (first > 0 && continues(first - 1)) first--;
  while (last + 1 < lines.size() && continues(last)) last++;
  for (size_t k = first; k <= last; k++) {
    std::string c = trim(codeOf(lines[k]));
    if (!c.empty() && c.back() == '&') c.pop_back();
    if (!c.empty() && c.front() == '&') c.erase(0, 1);
    joined += c + " ";
  }
  return joined;
}

// Arguments between the '(' at open and its ')'; false when unbalanced.
bool splitArguments(const std::string &s, size_t open, std::vector<std::string> &args) {
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

// The arguments a role of a point-to-point call gives: buffer, count,
// datatype, peer, communicator, and the ierror argument when written.
struct Side {
  std::string buf, count, type, peer, comm, ierr;
  bool ok = false;
};

Side sideOf(const FortranCall &c, bool send) {
  std::string n = lower(c.name);
  const std::vector<std::string> &a = c.args;
  Side s;
  auto take = [&](size_t b, size_t cnt, size_t ty, size_t peer, size_t comm, size_t nargs) {
    if (a.size() < nargs) return;
    s = {a[b], a[cnt], a[ty], a[peer], a[comm], a.size() > nargs ? a.back() : "", true};
  };
  if (n == "mpi_sendrecv") {
    if (send) take(0, 1, 2, 3, 10, 12);
    else take(5, 6, 7, 8, 10, 12);
  } else if (n == "mpi_sendrecv_replace") {
    take(0, 1, 2, send ? 3 : 5, 7, 9);
  } else if (n == "mpi_recv" || n == "mpi_irecv" || n == "mpi_recv_init") {
    if (!send) take(0, 1, 2, 3, 5, 7);
  } else if (n == "mpi_mrecv" || n == "mpi_imrecv") {
    // The message handle hides peer and communicator.
  } else if (n.size() > 4 && n.find("send") != std::string::npos) {
    bool request = n[4] == 'i' || n.find("_init") != std::string::npos;
    if (send) take(0, 1, 2, 3, 5, request ? 7 : 6);
  }
  return s;
}

// `all(q * block + 1)` -> `all`: the array whose blocks the loop walks.
std::string arrayOf(const std::string &buf) {
  size_t open = buf.find('(');
  if (open == std::string::npos || buf.back() != ')') return buf;
  std::vector<std::string> ignored;
  if (!splitArguments(buf, open, ignored)) return buf;
  return trim(llvm::StringRef(buf).take_front(open));
}

// A root named the same way on every rank: a variable, a named constant or
// a literal (not `me - mask`, not MPI_ANY_SOURCE).
bool rankIndependent(const std::string &e) {
  if (e.empty() || lower(e) == "mpi_any_source") return false;
  return std::all_of(e.begin(), e.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '%'; });
}

} // namespace

bool isFortranSource(llvm::StringRef path) {
  std::string ext = lower(llvm::sys::path::extension(path));
  for (const char *e : {".f", ".for", ".ftn", ".f77", ".f90", ".f95", ".f03", ".f08"})
    if (ext == e) return true;
  return false;
}

bool fortranCallAt(const std::string &source, unsigned line, bool fixed, FortranCall &out) {
  std::vector<std::string> lines = linesOf(source);
  if (line == 0 || line > lines.size()) return false;
  size_t first = 0, last = 0;
  std::string stmt = statementAt(lines, line - 1, fixed, first, last);
  std::string low = lower(stmt);
  for (size_t at = low.find("call"); at != std::string::npos; at = low.find("call", at + 4)) {
    if (at > 0 && (std::isalnum((unsigned char)low[at - 1]) || low[at - 1] == '_')) continue;
    size_t name = low.find_first_not_of(" \t", at + 4);
    if (name == std::string::npos || name == at + 4 || low.compare(name, 4, "mpi_") != 0) continue;
    size_t end = name;
    while (end < low.size() && (std::isalnum((unsigned char)low[end]) || low[end] == '_')) end++;
    size_t open = low.find_first_not_of(" \t", end);
    if (open == std::string::npos || low[open] != '(') continue;
    out.args.clear();
    if (!splitArguments(stmt, open, out.args)) return false;
    out.name = stmt.substr(name, end - name);
    out.firstLine = unsigned(first + 1);
    out.lastLine = unsigned(last + 1);
    out.text.clear();
    for (size_t k = first; k <= last; k++) out.text += lines[k] + "\n";
    return true;
  }
  return false;
}

void suggestFortran(const DetectedMatch &m, PatchPlan &p) {
  p.status = "none";
  bool fixed = isFixedForm(p.path);
  std::map<unsigned, FortranCall> statements; // by first line
  Side send, recv;
  for (const MatchSite &s : m.sites) {
    FortranCall c;
    if (!fortranCallAt(p.original, unsigned(s.line), fixed, c)) {
      p.reason = "a Fortran source: " + p.file + ":" + std::to_string(s.line) +
                 " holds no `call MPI_...(...)` statement this reader follows, so there is no "
                 "suggestion either (Clang parses C and C++ only: no patch)";
      return;
    }
    Side side = sideOf(c, s.send);
    Side &slot = s.send ? send : recv;
    if (!slot.ok) slot = side;
    statements[c.firstLine] = c;
  }
  for (const auto &[line, c] : statements) p.suggestionReplaces.push_back({c.firstLine, c.lastLine, c.text});

  const std::string &k = m.kind;
  bool rooted = k == "bcast" || k == "scatter" || k == "gather" || k == "reduce";
  bool needSend = k != "barrier", needRecv = k != "barrier" && k != "reduce" && k != "allreduce";
  if ((needSend && !send.ok) || (needRecv && !recv.ok)) {
    p.reason = "a Fortran source: the sites' calls do not show the buffers, counts and datatypes "
               "this suggestion needs (matched probes or an unknown routine): no suggestion, and no "
               "patch (Clang parses C and C++ only)";
    return;
  }
  std::string comm = send.ok ? send.comm : recv.comm;
  if (send.ok && recv.ok && lower(send.comm) != lower(recv.comm))
    p.notes.push_back("the sends name the communicator `" + send.comm + "`, the receives `" + recv.comm +
                      "`: the call must name the one both mean");
  std::string ierr = !send.ierr.empty() ? send.ierr : recv.ierr;
  std::string tail = ierr.empty() ? ")" : ", " + ierr + ")";
  std::string root = "<root>";
  if (rooted) {
    std::string e = k == "bcast" || k == "scatter" ? recv.peer : send.peer;
    if (rankIndependent(e)) root = e;
    else
      p.notes.push_back("the root: the peer argument `" + e +
                        "` changes from rank to rank, so the root is left to fill in");
  }
  std::string op = m.op.empty() ? "<op>" : m.op;
  if (m.op.empty() && (k == "reduce" || k == "allreduce"))
    p.notes.push_back("the operation: no observed value proved one, so it is left to fill in");
  auto list = [](std::initializer_list<std::string> a) {
    std::string s;
    for (const std::string &x : a) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::string call;
  if (k == "bcast") {
    call = "call MPI_Bcast(" + list({recv.buf, recv.count, recv.type, root, comm});
    if (lower(send.buf) != lower(recv.buf))
      p.notes.push_back("the root sends from `" + send.buf + "` and the others receive into `" + recv.buf +
                        "`: MPI_Bcast uses one buffer on every rank");
  } else if (k == "scatter") {
    call = "call MPI_Scatter(" + list({arrayOf(send.buf), send.count, send.type, recv.buf, recv.count,
                                       recv.type, root, comm});
    p.notes.push_back("MPI_Scatter also delivers the root's own block into `" + recv.buf +
                      "`: drop the root's copy of it, and check that `" + arrayOf(send.buf) +
                      "` holds block q at position q");
  } else if (k == "gather") {
    call = "call MPI_Gather(" + list({send.buf, send.count, send.type, arrayOf(recv.buf), recv.count,
                                      recv.type, root, comm});
    p.notes.push_back("MPI_Gather also stores the root's own block: drop the root's copy of it, and "
                      "check that `" + arrayOf(recv.buf) + "` receives block q at position q");
  } else if (k == "alltoall") {
    call = "call MPI_Alltoall(" + list({arrayOf(send.buf), send.count, send.type, arrayOf(recv.buf),
                                        recv.count, recv.type, comm});
    p.notes.push_back("check that block q of `" + arrayOf(send.buf) + "` goes to rank q and lands at "
                      "position q of `" + arrayOf(recv.buf) + "` (the rank's own block included)");
  } else if (k == "allgather") {
    call = "call MPI_Allgather(" + list({"MPI_IN_PLACE", "0", "MPI_DATATYPE_NULL", arrayOf(recv.buf),
                                         recv.count, recv.type, comm});
    p.notes.push_back("in place: each rank's own block must already sit at its rank's position of `" +
                      arrayOf(recv.buf) + "`");
  } else if (k == "reduce") {
    call = "call MPI_Reduce(" + list({send.buf, "<result>", send.count, send.type, op, root, comm});
    p.notes.push_back("the result: the hand-made tree combines into `" + send.buf +
                      "`; name the root's result buffer (or MPI_IN_PLACE on the root)");
  } else if (k == "allreduce") {
    call = "call MPI_Allreduce(" + list({"MPI_IN_PLACE", send.buf, send.count, send.type, op, comm});
    p.notes.push_back("in place: `" + send.buf + "` holds each rank's contribution and then the result, "
                      "as it does in the hand-made exchange");
  } else if (k == "barrier") {
    call = "call MPI_Barrier(" + comm;
  } else {
    p.reason = "a Fortran source: no suggestion for a " + k + " yet (the detection report's equivalent "
               "call names it), and no patch (Clang parses C and C++ only)";
    p.suggestionReplaces.clear();
    p.notes.clear();
    return;
  }
  p.suggestion = call + tail;
  if (m.status == "ambiguous") {
    std::string what;
    for (const std::string &u : m.unproven) what += (what.empty() ? "" : ", ") + u;
    p.notes.push_back("the trace does not prove " + what + ": settle it (the detection report's note "
                      "says how) before using this suggestion");
  }
  p.reason = "a Fortran source: no patch (Clang parses C and C++ only); the rationale suggests `" +
             p.suggestion + "` in place of the statements at the sites, built from their source text: "
             "check it, and remove the loop and rank tests around them by hand";
}

} // namespace cz::rewrite
