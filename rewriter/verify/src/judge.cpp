// judge.cpp: see judge.h.
#include "judge.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

namespace cz::verify {
namespace {

std::string seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f s", s);
  return b;
}

std::string lastLines(const std::string &text, size_t n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string o;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); i++)
    o += (o.empty() ? "" : "\n") + lines[i];
  return o;
}

std::string indented(const std::string &text, const std::string &pad) {
  std::string o;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) o += (o.empty() ? "" : "\n") + pad + l;
  return o;
}

std::string plural(size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

std::string describe(const ManualCollective &c) {
  std::string s = "manual " + c.kind + " on ranks [";
  for (size_t i = 0; i < c.ranks.size(); i++) s += (i ? ", " : "") + std::to_string(c.ranks[i]);
  s += "]";
  if (c.rootWorld >= 0) s += ", root " + std::to_string(c.rootWorld);
  return s;
}

Judgement judgeRuns(const std::vector<RunRecord> &orig, const std::vector<RunRecord> &pat,
                    const RunSettings &settings) {
  Judgement j;
  if (orig.empty() || pat.empty()) {
    j.verdict = "error";
    j.text = "no runs to compare";
    return j;
  }
  int origExit = orig[0].exit;
  double origMax = 0;
  for (const RunRecord &r : orig) origMax = std::max(origMax, r.seconds);
  for (size_t i = 0; i < orig.size(); i++)
    if (orig[i].exit != origExit || orig[i].timedOut) {
      j.verdict = "error";
      j.text = "the original program itself is not repeatable: exit " + std::to_string(origExit) +
               " in run 1, " +
               (orig[i].timedOut ? "killed after " + seconds(orig[i].seconds)
                                 : "exit " + std::to_string(orig[i].exit)) +
               " in run " + std::to_string(i + 1) + " (outputs in " + settings.runsDir + ")";
      return j;
    }
  for (size_t i = 0; i < pat.size(); i++) {
    const RunRecord &p = pat[i];
    if (!p.timedOut && p.exit == origExit) continue;
    j.verdict = "exit status differs";
    j.text = "the original exits with " + std::to_string(origExit) + " in every run; " +
             (p.timedOut ? "the patched program was killed after " + seconds(p.seconds) +
                               " in run " + std::to_string(i + 1) + " (the original took at most " +
                               seconds(origMax) + "): a deadlock?"
                         : "the patched program exits with " + std::to_string(p.exit) +
                               " in run " + std::to_string(i + 1));
    std::string err = lastLines(p.err, 8);
    if (!err.empty()) j.text += "; its stderr ends with:\n" + err;
    return j;
  }

  const OutputFilter &filter = settings.filter;
  std::vector<std::string> streams{"stdout"};
  if (settings.compareStderr) streams.push_back("stderr");
  std::string varying, ignoredText;
  for (const std::string &stream : streams) {
    auto text = [&](const RunRecord &r) -> const std::string & {
      return stream == "stdout" ? r.out : r.err;
    };
    std::set<std::vector<std::string>> originals;
    for (const RunRecord &r : orig) originals.insert(normalizeOutput(text(r), filter));
    if (originals.size() > 1)
      varying += "\nthe original's " + stream + " itself varies between runs (" +
                 std::to_string(originals.size()) + " different outputs in " +
                 plural(orig.size(), "run") + "): --ignore REGEX the lines that vary";
    for (size_t i = 0; i < pat.size(); i++) {
      auto lines = normalizeOutput(text(pat[i]), filter);
      if (originals.count(lines)) continue;
      j.verdict = "output differs";
      j.text = "the patched program's " + stream + " (run " + std::to_string(i + 1) +
               ") differs from the original's" +
               (filter.ordered ? "" : " (compared as sorted lines: ranks print in any order)") +
               (filter.ignore.empty() ? "" : ", after dropping lines matching --ignore") +
               "; lines only in the original (-) and only in the patched (+):\n" +
               describeDifference(*originals.begin(), lines, filter.ordered) + varying +
               "\nall outputs: " + settings.runsDir;
      return j;
    }
    // What --ignore hid is said, so that a pattern hiding a real
    // difference is seen.
    if (!filter.ignore.empty()) {
      int n = 0;
      std::vector<std::string> before, after;
      normalizeOutput(text(orig[0]), filter, &n, &before);
      normalizeOutput(text(pat[0]), filter, nullptr, &after);
      if (!filter.ordered) {
        std::sort(before.begin(), before.end());
        std::sort(after.begin(), after.end());
      }
      if (n || !after.empty()) {
        std::string diff = describeDifference(before, after, filter.ordered, 4);
        ignoredText += "\n  --ignore dropped " + plural(size_t(n), (stream + " line").c_str()) +
                       " of the original's run 1" +
                       (diff.empty() ? ", the same in the patched run 1"
                                     : "; they differed from the patched run 1's:\n" +
                                           indented(diff, "    "));
      }
    }
  }
  j.text = "outputs: stdout" + std::string(settings.compareStderr ? ", stderr" : "") +
           " and exit status (" + std::to_string(origExit) + ") the same in " +
           plural(pat.size(), "run") + " of each" + ignoredText;
  return j;
}

std::string timingLine(const TimingSummary &o, const TimingSummary &p, int runs) {
  char b[384];
  std::snprintf(b, sizeof b,
                "time: original median %.3f s (min %.3f, max %.3f), patched median %.3f s "
                "(min %.3f, max %.3f) over %d run%s each: speedup %.2fx",
                o.median, o.min, o.max, p.median, p.min, p.max, runs, runs == 1 ? "" : "s",
                speedup(o, p));
  std::string line = b;
  // Whole-command wall time includes mpirun's start-up: a ratio near 1
  // inside overlapping ranges is not a result.
  if (runs > 1 && p.min <= o.max && o.min <= p.max)
    line += " (the ranges overlap: within run-to-run noise at " + std::to_string(runs) +
            " runs; more --runs or a longer run to tell)";
  return line;
}

Judgement judgeRetrace(const RetraceInputs &in, const TraceFindings &before,
                       const TraceFindings &after, Retrace &rt) {
  Judgement j;
  rt.originalCollectives = before.collectives;
  rt.patchedCollectives = after.collectives;
  rt.targets.clear();
  rt.matchesLeft = 0;

  // The targeted collectives as the original run shows them.
  std::string missing;
  if (in.targets.empty()) {
    for (const ManualCollective &m : before.matches)
      if (m.confirmed) rt.targets.push_back(m);
  } else {
    for (const ManualCollective &t : in.targets) {
      bool found = false;
      for (const ManualCollective &m : before.matches)
        if (sameCollective(t, in.reportRanks, m, before.ranks)) {
          rt.targets.push_back(m);
          found = true;
        }
      if (!found) missing += (missing.empty() ? "" : "; ") + describe(t);
    }
  }
  if (!missing.empty()) {
    j.verdict = "error";
    j.text = "retrace: the original program, run this way, shows no " + missing +
             " (the patch targets it; the detection report traced '" + in.reportCommand +
             "'): verify with the command that was traced";
    return j;
  }
  if (rt.targets.empty()) {
    j.verdict = "error";
    j.text = "retrace: the original's traced run shows no confirmed manual collective for "
             "this patch to remove";
    return j;
  }

  std::string left;
  std::set<std::string> kinds;
  for (const ManualCollective &t : rt.targets) {
    kinds.insert(t.kind);
    for (const ManualCollective &m : after.matches)
      if (sameCollective(t, before.ranks, m, after.ranks)) {
        rt.matchesLeft++;
        left += (left.empty() ? "" : "; ") + describe(m) + " (" +
                plural(size_t(m.instances), "instance") + ")";
      }
  }
  if (rt.matchesLeft > 0) {
    j.verdict = "manual messages remain";
    j.text = "retrace: the patched program's trace still shows " + left;
    return j;
  }

  std::string appeared, absent;
  std::vector<std::vector<std::string>> wanted; // any of each must appear
  for (const std::string &kind : kinds) wanted.push_back(acceptedCollectives(kind));
  if (!in.expected.empty()) {
    wanted.clear();
    for (const std::string &name : in.expected) wanted.push_back({name});
  }
  for (const std::vector<std::string> &names : wanted) {
    bool any = false;
    for (const std::string &name : names) {
      auto count = [&](const std::map<std::string, uint64_t> &m) {
        auto it = m.find(name);
        return it == m.end() ? uint64_t(0) : it->second;
      };
      uint64_t was = count(before.collectives), now = count(after.collectives);
      if (now > was) {
        appeared += (appeared.empty() ? "" : ", ") + name + " calls " + std::to_string(was) +
                    " -> " + std::to_string(now);
        any = true;
      }
    }
    if (!any) absent += (absent.empty() ? "" : ", ") + names[0];
  }
  std::string gone;
  for (const ManualCollective &t : rt.targets) gone += (gone.empty() ? "" : "; ") + describe(t);
  if (!absent.empty() && !in.runtimeTarget) {
    j.verdict = "collective missing";
    j.text = "retrace: the " + gone + " is gone from the patched trace, but it shows no new " +
             absent + " call either: the patch removed the communication instead of "
             "replacing it?";
    return j;
  }
  j.text = "retrace: the " + gone + " is gone" +
           (in.runtimeTarget ? " (cz_* collectives talk through PMPI and leave no collective "
                               "event to count)"
                             : "; " + appeared);
  return j;
}

} // namespace cz::verify
