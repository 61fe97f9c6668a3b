// FortranBcastPatch.cpp: see FortranBcastPatch.h. The block around the
// match's sites is read as a list of statements (continuation lines
// joined, free or fixed form), each given a shape (if-then, else, do, a
// call, ...); the list must be one of the two orders of the pattern
// exactly, and the calls' arguments must agree.
#include "FortranBcastPatch.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "FortranRequests.h"
#include "FortranStatements.h"
#include "FortranText.h"

namespace cz::rewrite {
namespace {
using namespace fortran;

std::string trim(llvm::StringRef s) { return s.trim().str(); }

// The most statements the root's branch may hold before its loop.
constexpr size_t kMostKept = 8;

class Recogniser {
public:
  Recogniser(const DetectedMatch &m, PatchPlan &p)
      : m_(m), p_(p), lines_(sourceLines(p.original)), fixed_(isFixedFormSource(p.path)) {}
  bool run(std::string &why);

private:
  bool fail(std::string &why, const std::string &text) {
    why = text;
    return false;
  }
  std::string at(unsigned line) const { return p_.file + ":" + std::to_string(line); }
  bool readBlock(unsigned sendLine, unsigned recvLine, std::string &why);
  bool matchOrder(std::string &why);
  bool callsAgree(std::string &why);
  void reviewProvenance();
  std::vector<size_t> usesOutsideLoopsOver(const std::string &var) const;
  bool statusUnread(std::string &why);
  bool keptLeaveCallAlone(std::string &why);
  bool requestsComplete(std::string &why);
  void write();
  std::string wrapped(const std::string &indent, const std::string &buffer, const std::vector<std::string> &rest,
                      const std::string &ierr) const;

  const DetectedMatch &m_;
  PatchPlan &p_;
  std::vector<std::string> lines_;
  bool fixed_ = false; // fixed form: columns 7-72, continuation in column 6
  std::vector<Statement> block_; // from `if ... then` to its `end if`, blank lines left out
  const Statement *send_ = nullptr, *recv_ = nullptr, *loop_ = nullptr, *guard_ = nullptr;
  const Statement *waitall_ = nullptr; // the Isend form: the MPI_Waitall after the loop
  std::vector<const Statement *> kept_; // the root's statements before its loop
  std::vector<const Statement *> after_; // and after it (after the waitall in the Isend form)
  FortranCall sendCall_, recvCall_;
  std::string rank_, root_, size_;
  std::string rootTest_; // the rank test that holds on the root, as written
  size_t unitFirst_ = 0, unitLast_ = 0;
};

// From the `if ... then` above the earlier site to its `end if`: right
// above the receive when it comes first; above the send's loop (and its
// block guard) when the send does.
bool Recogniser::readBlock(unsigned sendLine, unsigned recvLine, std::string &why) {
  // The calls' first lines (a site may be at any line of a continued call).
  sendLine = classify(lines_, sendLine - 1, fixed_).line;
  recvLine = classify(lines_, recvLine - 1, fixed_).line;
  unsigned top = std::min(sendLine, recvLine);
  std::vector<Statement> above; // nearest first, blank lines left out
  for (size_t k = top - 1; k-- > 0 && above.size() < 3 + kMostKept;) {
    Statement s = classify(lines_, k, fixed_);
    k = s.line - 1; // to the statement's first line
    if (s.shape != Shape::Blank) above.push_back(s);
  }
  auto shapeAt = [&](size_t i) { return i < above.size() ? above[i].shape : Shape::Other; };
  size_t opening = 0; // index in `above` of the rank test
  if (top == recvLine) opening = 0;
  else if (shapeAt(0) == Shape::Do) opening = 1;
  else if (shapeAt(0) == Shape::IfThen && shapeAt(1) == Shape::Do) opening = 2;
  else opening = above.size();
  // The root's own statements before its loop.
  if (top == sendLine)
    while (opening < above.size() && shapeAt(opening) == Shape::Simple) opening++;
  if (shapeAt(opening) != Shape::IfThen) {
    std::string there;
    for (const Statement &s : above)
      if (s.shape != Shape::Do && s.shape != Shape::IfThen) {
        if (s.shape == Shape::Simple) continue;
        there = ": " + at(s.line) + " holds " + (s.shape == Shape::Other ? s.why : "`" + s.code + "`");
        break;
      }
    return fail(why, "no `if (...) then` opens a block right above " + at(top) +
                         (top == sendLine ? " and its loop" : "") + there + " (the pattern: the rank test, "
                         "the loop of sends, else, the receive, end if)");
  }
  size_t start = above[opening].line - 1;
  int depth = 0;
  for (size_t k = start; k < lines_.size(); k++) {
    Statement s = classify(lines_, k, fixed_);
    k = s.lastLine - 1; // past the statement's continuation lines
    if (s.shape == Shape::Blank) continue;
    if (s.shape == Shape::Other)
      return fail(why, at(s.line) + " holds " + s.why + " (`" + trim(lines_[k]) + "`) in the block: the "
                       "pattern has nothing but the rank test, the loop of sends, else, the receive and end if");
    block_.push_back(s);
    if (s.shape == Shape::IfThen || s.shape == Shape::Do) depth++;
    if (s.shape == Shape::EndIf || s.shape == Shape::EndDo) depth--;
    if (depth == 0) break;
    if (block_.size() > 9 + kMostKept) break;
  }
  if (depth != 0 || block_.back().shape != Shape::EndIf)
    return fail(why, "the block opened at " + at(block_.front().line) + " is longer than the pattern "
                     "(if, do, send, end do, else, receive, end if)");
  return true;
}

// The statements in one of the pattern's two orders; sets the roles. The
// root's branch may start with simple statements (it fills the buffer,
// prints): they are kept, run by the root before the call.
bool Recogniser::matchOrder(std::string &why) {
  std::vector<Shape> shapes;
  for (const Statement &s : block_) shapes.push_back(s.shape);
  using S = Shape;
  // The loop with its send: `do / [if () then] call [end if] / end do`.
  auto loopAt = [&](size_t i, size_t &next) {
    if (i + 2 >= block_.size() || shapes[i] != S::Do) return false;
    loop_ = &block_[i];
    // A labelled DO ends at its label, an unlabelled one at `end do`.
    auto endsLoop = [&](size_t e) { return shapes[e] == S::EndDo && block_[e].label == loop_->doLabel; };
    if (shapes[i + 1] == S::GuardedCall && endsLoop(i + 2)) {
      guard_ = send_ = &block_[i + 1];
      next = i + 3;
      return true;
    }
    if (shapes[i + 1] == S::Call && endsLoop(i + 2)) {
      send_ = &block_[i + 1];
      next = i + 3;
      return true;
    }
    if (i + 4 < block_.size() && shapes[i + 1] == S::IfThen && shapes[i + 2] == S::Call &&
        shapes[i + 3] == S::EndIf && endsLoop(i + 4)) {
      guard_ = &block_[i + 1];
      send_ = &block_[i + 2];
      next = i + 5;
      return true;
    }
    return false;
  };
  std::string a, b;
  size_t next = 0;
  const std::string &cond = block_[0].condition;
  bool rootFirst = comparison(cond, {"==", ".eq."}, a, b);
  bool ok = false;
  auto keptFrom = [&](size_t i) {
    while (i < block_.size() && shapes[i] == S::Simple) kept_.push_back(&block_[i++]);
    return i;
  };
  // The Isend form's MPI_Waitall right after the loop (FortranRequests.h),
  // then the root's statements after its sends.
  auto waitallAndAfter = [&](size_t i) {
    if (i < block_.size() && isWaitallStatement(block_[i])) waitall_ = &block_[i++];
    while (i < block_.size() && shapes[i] == S::Simple) after_.push_back(&block_[i++]);
    return i;
  };
  if (rootFirst) {
    // if (me == root) then / [kept] loop [waitall] [after] / else / receive / end if
    ok = loopAt(keptFrom(1), next) && (next = waitallAndAfter(next)) + 3 == block_.size() &&
         shapes[next] == S::Else && shapes[next + 1] == S::Call;
    if (ok) recv_ = &block_[next + 1];
  } else if (comparison(cond, {"/=", ".ne."}, a, b)) {
    // if (me /= root) then / receive / else / [kept] loop [waitall] [after] / end if
    ok = block_.size() > 4 && shapes[1] == S::Call && shapes[2] == S::Else && loopAt(keptFrom(3), next) &&
         waitallAndAfter(next) + 1 == block_.size();
    if (ok) recv_ = &block_[1];
  } else {
    return fail(why, at(block_[0].line) + ": the block's test `" + cond + "` is not `rank == root` or "
                     "`rank /= root` with a name or a literal on each side");
  }
  for (const Statement &st : block_)
    if (!ok && st.shape == S::Simple && std::find(kept_.begin(), kept_.end(), &st) == kept_.end() &&
        std::find(after_.begin(), after_.end(), &st) == after_.end())
      return fail(why, at(st.line) + " holds `" + st.code + "` in the block: only the root's statements "
                       "before and after its loop of sends are kept (the pattern: the rank test, the loop of "
                       "sends, else, the receive, end if)");
  if (!ok)
    return fail(why, "the block at lines " + std::to_string(block_.front().line) + "-" +
                         std::to_string(block_.back().line) + " is not the pattern (the rank test, a loop "
                         "whose only statement is the send, else, the receive, end if)");
  rank_ = a;
  root_ = b;
  rootTest_ = cond;
  if (!rootFirst) { // `me /= root` written as `me == root`, in the same style
    std::string low = llvm::StringRef(cond).lower();
    size_t slash = low.find("/="), dot = low.find(".ne.");
    if (slash != std::string::npos) rootTest_.replace(slash, 2, "==");
    else if (dot != std::string::npos) rootTest_.replace(dot, 4, cond[dot + 1] == 'N' ? ".EQ." : ".eq.");
    else rootTest_.clear(); // the kept statements cannot be guarded: refused if any
  }
  if (rootTest_.empty() && (!kept_.empty() || !after_.empty()))
    return fail(why, "the rank test `" + cond + "` could not be written for the root, which runs the "
                     "statements kept around its loop");
  return true;
}

// The send and the receive move the same buffer, count and datatype with
// the same tag on the same communicator; the loop reaches every rank but
// the root.
bool Recogniser::callsAgree(std::string &why) {
  if (!fortranCallAt(p_.original, send_->line, fixed_, sendCall_) ||
      !fortranCallAt(p_.original, recv_->line, fixed_, recvCall_))
    return fail(why, "the calls at " + at(send_->line) + " and " + at(recv_->line) + " do not read as calls");
  bool isend = norm(sendCall_.name) == "mpi_isend";
  if ((norm(sendCall_.name) != "mpi_send" && !isend) || norm(recvCall_.name) != "mpi_recv")
    return fail(why, "the calls are " + sendCall_.name + " and " + recvCall_.name +
                         ": the patch is made for MPI_Send or MPI_Isend in the loop and MPI_Recv only");
  if (waitall_ && !isend)
    return fail(why, at(waitall_->line) + " holds an MPI_Waitall after a loop of blocking sends: not the pattern");
  const std::vector<std::string> &s = sendCall_.args, &r = recvCall_.args;
  const size_t sendArgs = isend ? 7 : 6; // MPI_Isend adds its request
  bool sendHasErr = s.size() == sendArgs + 1, recvHasErr = r.size() == 8;
  if ((s.size() != sendArgs && !sendHasErr) || (r.size() != 7 && !recvHasErr))
    return fail(why, sendCall_.name + " or MPI_Recv is called with another number of arguments than MPI's");
  if (sendHasErr != recvHasErr || (sendHasErr && norm(s[sendArgs]) != norm(r[7])))
    return fail(why, "the send and the receive set different error arguments");
  // The rank test may name the root first.
  if (norm(r[3]) == rank_) std::swap(rank_, root_);
  if (norm(r[3]) != root_ || !isName(rank_))
    return fail(why, "the receive's source `" + r[3] + "` is not the root the block's test compares "
                     "the rank with (`" + block_[0].condition + "`)");
  static const std::regex literal("[0-9]+");
  if (std::regex_match(root_, literal) && m_.root >= 0 && std::stoll(root_) != m_.root)
    return fail(why, "the root written in the source, " + root_ + ", is not the root the trace shows");
  const char *what[] = {"buffer", "count", "datatype"};
  for (int i = 0; i < 3; i++)
    if (norm(s[i]) != norm(r[i]))
      return fail(why, std::string("the send and the receive name different ") + what[i] + "s (`" + s[i] +
                           "`, `" + r[i] + "`)");
  if (norm(s[4]) != norm(r[4])) return fail(why, "the send and the receive use different tags (`" + s[4] + "`, `" + r[4] + "`)");
  if (norm(s[5]) != norm(r[5]))
    return fail(why, "the send and the receive name different communicators (`" + s[5] + "`, `" + r[5] + "`)");
  const std::string &v = loop_->var;
  if (norm(s[3]) != norm(v))
    return fail(why, "the send's destination `" + s[3] + "` is not the loop variable `" + v + "`");
  for (int i = 0; i < 3; i++)
    if (mentions(s[i], v))
      return fail(why, std::string("the send's ") + what[i] + " `" + s[i] + "` changes with the loop variable");
  // The loop skips the root: `do q = 0, p - 1` with the guard `q /= root`,
  // or, the root being 0, `do q = 1, p - 1`.
  static const std::regex lastRank("([a-z_][a-z0-9_]*)-1");
  std::smatch hm;
  std::string hi = norm(loop_->hi), lo = norm(loop_->lo);
  if (!std::regex_match(hi, hm, lastRank))
    return fail(why, "the loop's upper bound `" + loop_->hi + "` is not `size - 1`");
  size_ = hm[1];
  if (guard_) {
    std::string a, b;
    bool skips = comparison(guard_->condition, {"/=", ".ne."}, a, b) &&
                 ((a == norm(v) && b == root_) || (b == norm(v) && a == root_));
    if (!skips || lo != "0")
      return fail(why, "the loop does not provably skip the root: its test `" + guard_->condition +
                           "` is not `" + v + " /= " + root_ + "` over `" + v + " = 0, " + size_ + " - 1`");
  } else if (!(root_ == "0" && lo == "1")) {
    return fail(why, "the loop `do " + v + " = " + loop_->lo + ", " + loop_->hi +
                         "` does not provably skip the root (no `if (" + v + " /= " + root_ +
                         ")` guard, and it does not start at 1 with the root 0)");
  }
  return true;
}

// A status the receive filled must not be read anywhere else in the unit.
bool Recogniser::statusUnread(std::string &why) {
  const std::string &status = recvCall_.args[6];
  if (norm(status) == "mpi_status_ignore") return true;
  if (!isName(status))
    return fail(why, "the receive's status `" + status + "` is not a variable this reader can follow");
  for (size_t k = unitFirst_; k <= unitLast_; k++) {
    if (k + 1 >= recv_->line && k + 1 <= recv_->lastLine) continue;
    std::string code = codeOf(lines_, k, fixed_);
    if (mentions(code, status) && !isDeclaration(code))
      return fail(why, "the receive's status `" + status + "` is used at " + at(unsigned(k + 1)) +
                           ": after MPI_Bcast it would hold nothing");
  }
  return true;
}

// The root's kept statements run before the call instead of before the
// sends: the same order on the root. They must not assign what the rank
// test, the loop or the call read (the root, the rank, the size, the loop
// variable, the count, datatype and communicator), which would make the
// call differ from the sends.
bool Recogniser::keptLeaveCallAlone(std::string &why) {
  const std::vector<std::string> &s = sendCall_.args;
  // After the patch nothing sets the loop variable where they run.
  for (const Statement *k : after_)
    if (mentions(k->code, loop_->var))
      return fail(why, at(k->line) + " reads the loop variable `" + loop_->var + "` after the loop: after the "
                       "patch no loop sets it");
  for (const Statement *k : kept_) {
    if (k->var.empty()) continue; // print, write
    for (const std::string &name : {rank_, root_, size_, norm(loop_->var)})
      if (norm(k->var) == name)
        return fail(why, at(k->line) + " assigns `" + k->var + "`, which the rank test or the loop reads: "
                         "the call would not see what the sends saw");
    for (int i : {1, 2, 5})
      if (mentions(s[i], k->var))
        return fail(why, at(k->line) + " assigns `" + k->var + "`, which the call's argument `" + s[i] +
                         "` reads");
  }
  return true;
}

// The Isend form: the MPI_Waitall after the loop completes exactly its
// requests (FortranRequests.h), and goes with the block.
bool Recogniser::requestsComplete(std::string &why) {
  if (norm(sendCall_.name) != "mpi_isend") return true;
  IsendLoop l;
  l.source = &p_.original;
  l.lines = &lines_;
  l.fixed = fixed_;
  l.file = p_.file;
  l.unitFirst = unitFirst_;
  l.unitLast = unitLast_;
  l.blockFirst = block_.front().line;
  l.blockLast = block_.back().lastLine;
  l.loop = loop_;
  l.guarded = guard_ != nullptr;
  l.request = sendCall_.args[6];
  l.size = size_;
  l.waitall = waitall_;
  std::string note;
  if (!waitallCompletesLoop(l, note, why)) return false;
  p_.notes.push_back(note);
  return true;
}

// What the text does not prove becomes review: the loop's bound and the
// rank from this communicator in this unit, and the loop variable's value
// after the block.
void Recogniser::reviewProvenance() {
  const std::string comm = norm(sendCall_.args[5]);
  bool sized = false, ranked = false;
  std::set<std::string> assigned;
  static const std::regex assignment("^([a-z_][a-z0-9_]*)\\s*=[^=].*", std::regex::icase);
  for (size_t k = unitFirst_; k <= unitLast_; k++) {
    std::string code = trim(codeOf(lines_, k, fixed_));
    std::smatch am;
    if (std::regex_match(code, am, assignment)) assigned.insert(norm(am[1]));
    if (!mentions(code, "mpi_comm_size") && !mentions(code, "mpi_comm_rank")) continue;
    FortranCall c;
    if (!fortranCallAt(p_.original, unsigned(k + 1), fixed_, c) || c.args.size() < 2 || norm(c.args[0]) != comm)
      continue;
    if (norm(c.name) == "mpi_comm_size" && norm(c.args[1]) == size_) sized = true;
    if (norm(c.name) == "mpi_comm_rank" && norm(c.args[1]) == rank_) ranked = true;
  }
  if (!sized || assigned.count(size_))
    p_.review.push_back("the loop's bound: nothing in this program unit shows that `" + size_ +
                        "` is the size of `" + sendCall_.args[5] + "` (no `call MPI_Comm_size(" +
                        sendCall_.args[5] + ", " + size_ + ", ...)` there, or it is assigned too); "
                        "the trace saw every rank reached, check it holds for every run");
  if (!ranked || assigned.count(rank_))
    p_.review.push_back("the rank test: nothing in this program unit shows that `" + rank_ +
                        "` is the rank in `" + sendCall_.args[5] + "` (no `call MPI_Comm_rank(" +
                        sendCall_.args[5] + ", " + rank_ + ", ...)` there, or it is assigned too)");
  // The loop variable: harmless where another `do` over it sets it first.
  std::vector<size_t> uses = usesOutsideLoopsOver(loop_->var);
  for (size_t k : uses) {
    if (k + 1 >= block_.front().line && k + 1 <= block_.back().line) continue;
    p_.review.push_back("the loop variable `" + loop_->var + "` is used at " + at(unsigned(k + 1)) +
                        " outside a loop over it: after the patch it keeps the value it had before "
                        "the block, not the one the loop left");
    break;
  }
}

// Lines of the unit (0-based) that name `var` outside declarations and
// outside the `do var = ...` loops (their own line included) that set it.
std::vector<size_t> Recogniser::usesOutsideLoopsOver(const std::string &var) const {
  static const std::regex doRe("^(\\w+\\s*:\\s*)?do\\s+(([0-9]+)\\s*,?\\s*)?([a-z_][a-z0-9_]*)\\s*=.*",
                               std::regex::icase),
      doAny("^(\\w+\\s*:\\s*)?do\\b.*", std::regex::icase),
      endDo("^end\\s*do\\b.*", std::regex::icase), label("^([0-9]+)\\s.*");
  struct Open {
    bool overVar;
    std::string label; // a labelled DO ends at that label
  };
  std::vector<Open> open;
  std::vector<size_t> out;
  auto inLoopOverVar = [&] {
    return std::any_of(open.begin(), open.end(), [](const Open &o) { return o.overVar; });
  };
  for (size_t k = unitFirst_; k <= unitLast_; k++) {
    std::string code = trim(codeOf(lines_, k, fixed_));
    std::smatch m;
    bool opens = false;
    if (std::regex_match(code, m, doRe)) {
      open.push_back({norm(m[4]) == norm(var), m[3]});
      opens = true;
    } else if (std::regex_match(code, m, doAny)) {
      open.push_back({false, ""});
      opens = true;
    }
    if (mentions(code, var) && !isDeclaration(code) && !inLoopOverVar()) out.push_back(k);
    if (opens) continue;
    if (std::regex_match(code, endDo) && !open.empty() && open.back().label.empty()) open.pop_back();
    if (std::regex_match(code, m, label))
      while (!open.empty() && open.back().label == m[1].str()) open.pop_back();
  }
  return out;
}

// `call MPI_Bcast(...)` after `indent`, in the source form's line length
// (free form 132 columns, continued with `&`; fixed form up to column 72,
// continued with `&` in column 6): broken after an argument's comma.
std::string Recogniser::wrapped(const std::string &indent, const std::string &buffer,
                                const std::vector<std::string> &rest, const std::string &ierr) const {
  std::vector<std::string> pieces = {"call MPI_Bcast(" + buffer + ","};
  for (const std::string &a : rest) pieces.push_back(a + ",");
  if (!ierr.empty()) pieces.push_back(ierr + ",");
  pieces.back().back() = ')';
  size_t width = 0; // columns the indent takes (a tab to the next multiple of 8)
  for (char c : indent) width = c == '\t' ? (width / 8 + 1) * 8 : width + 1;
  const size_t limit = fixed_ ? 72 : 132;
  std::string next = fixed_ ? "\n     &" + std::string(width > 6 ? width - 6 + 4 : 4, ' ')
                            : " &\n" + indent + "    ";
  size_t nextWidth = fixed_ ? std::max<size_t>(width, 6) + 4 : width + 4;
  std::string out = pieces[0];
  size_t column = width + out.size();
  for (size_t i = 1; i < pieces.size(); i++) {
    // Room for the piece, and in free form for a ` &` after it.
    size_t reserve = fixed_ || i + 1 == pieces.size() ? 0 : 2;
    if (column + 1 + pieces[i].size() + reserve <= limit) {
      out += " " + pieces[i];
      column += 1 + pieces[i].size();
    } else {
      out += next + pieces[i];
      column = nextWidth + pieces[i].size();
    }
  }
  return out;
}

void Recogniser::write() {
  const std::vector<std::string> &s = sendCall_.args;
  bool hasErr = s.size() == (norm(sendCall_.name) == "mpi_isend" ? 8u : 7u);
  std::string ierr = hasErr ? ", " + s.back() : "";
  std::string root = recvCall_.args[3];
  p_.call = "MPI_Bcast(" + s[0] + ", " + s[1] + ", " + s[2] + ", " + root + ", " + s[5] + ierr + ")";
  const std::string &first = lines_[block_.front().line - 1];
  size_t indent = first.find_first_not_of(" \t");
  std::string lead = first.substr(0, indent);
  p_.replacement = wrapped(lead, s[0], {s[1], s[2], root, s[5]}, hasErr ? s.back() : "");
  // `if (me == root) then` / the kept lines as written / `end if`, before
  // the call for the statements before the loop, after it for those after.
  std::string test = block_.front().code;
  if (block_.front().condition != rootTest_) {
    size_t at = test.find(block_.front().condition);
    test = test.substr(0, at) + rootTest_ + test.substr(at + block_.front().condition.size());
  }
  auto rootsOwn = [&](const std::vector<const Statement *> &list) {
    std::string text = test + "\n";
    for (const Statement *k : list)
      for (unsigned l = k->line; l <= k->lastLine; l++) text += lines_[l - 1] + "\n";
    return text + lead + block_.back().code;
  };
  auto keptNote = [&](const std::vector<const Statement *> &list, const char *where) {
    p_.notes.push_back("the root's statements " + std::string(where) + " its loop (lines " +
                       std::to_string(list.front()->line) + "-" + std::to_string(list.back()->lastLine) +
                       ") are kept as written, run by the root " + where + " the call as they ran " + where +
                       " the sends");
  };
  if (!kept_.empty()) {
    p_.replacement = rootsOwn(kept_) + "\n" + lead + p_.replacement;
    keptNote(kept_, "before");
  }
  if (!after_.empty()) {
    p_.replacement += "\n" + lead + rootsOwn(after_);
    keptNote(after_, "after");
  }
  unsigned offset = 0;
  for (unsigned k = 0; k + 1 < block_.front().line; k++) offset += unsigned(lines_[k].size() + 1);
  p_.begin = offset + unsigned(indent);
  p_.beginLine = block_.front().line;
  p_.beginColumn = unsigned(indent + 1);
  unsigned lastLine = block_.back().lastLine;
  offset = 0;
  for (unsigned k = 0; k + 1 < lastLine; k++) offset += unsigned(lines_[k].size() + 1);
  const std::string &last = lines_[lastLine - 1];
  size_t endCol = last.find_last_not_of(" \t\r") + 1;
  p_.end = offset + unsigned(endCol);
  p_.endLine = lastLine;
  p_.endColumn = unsigned(endCol + 1);
  p_.collectives = {"MPI_Bcast"};
  // What verify's Fortran probe hashes after the block: the call's own
  // buffer, count, datatype and communicator, on every rank.
  CallEffect effect;
  effect.buffer = s[0];
  effect.count = s[1];
  effect.datatype = s[2];
  effect.comm = s[5];
  p_.effects = {effect};
  p_.notes.push_back("read statement by statement (Fortran is not parsed): lines " + std::to_string(block_.front().line) +
                     "-" + std::to_string(block_.back().line) + " hold nothing but the rank test, the loop "
                     "of sends that skips the root, the receive and the block's end; the send and the "
                     "receive name the same buffer, count, datatype, tag and communicator");
  p_.notes.push_back("the loop variable `" + loop_->var + "` and the receive's status are no longer set by "
                     "the block");
  p_.status = p_.review.empty() ? "proposed" : "review";
  p_.suggestion.clear();
  p_.suggestionReplaces.clear();
}

bool Recogniser::run(std::string &why) {
  if (m_.kind != "bcast")
    return fail(why, "Clang parses C and C++ only; in Fortran only one shape of bcast is patched");
  if (m_.status != "confirmed") return fail(why, "only a confirmed Fortran bcast is patched; this one is " + m_.status);
  if (m_.subset || m_.root < 0)
    return fail(why, m_.subset ? "the broadcast reaches part of its communicator only"
                               : "the root changes from instance to instance");
  std::set<unsigned> sends, recvs;
  for (const MatchSite &s : m_.sites) (s.send ? sends : recvs).insert(unsigned(s.line));
  if (sends.size() != 1 || recvs.size() != 1)
    return fail(why, "the match has " + std::to_string(sends.size()) + " send and " +
                         std::to_string(recvs.size()) + " receive lines; the pattern has one of each");
  unsigned sendLine = *sends.begin(), recvLine = *recvs.begin();
  if (!sendLine || !recvLine || sendLine > lines_.size() || recvLine > lines_.size())
    return fail(why, "a site's line is not in " + p_.file);
  if (!readBlock(sendLine, recvLine, why) || !matchOrder(why)) return false;
  auto holds = [](const Statement *st, unsigned line) { return line >= st->line && line <= st->lastLine; };
  if (!holds(send_, sendLine) || !holds(recv_, recvLine))
    return fail(why, "the block's calls (lines " + std::to_string(send_->line) + ", " +
                         std::to_string(recv_->line) + ") are not the match's sites (lines " +
                         std::to_string(sendLine) + ", " + std::to_string(recvLine) + ")");
  if (!callsAgree(why)) return false;
  unitAround(lines_, fixed_, block_.front().line - 1, unitFirst_, unitLast_);
  if (!statusUnread(why) || !keptLeaveCallAlone(why) || !requestsComplete(why)) return false;
  reviewProvenance();
  write();
  return true;
}

} // namespace

bool patchFortranBcast(const DetectedMatch &m, PatchPlan &p, std::string &why) {
  return Recogniser(m, p).run(why);
}

} // namespace cz::rewrite
