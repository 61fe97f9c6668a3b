// runs.cpp: see runs.h.
#include "collectivize/runs.h"

#include <algorithm>
#include <map>

#include "collectivize/collective_kinds.h"

namespace cz::detect {
namespace {

// Call sites without the instance: what identifies one piece of code.
std::vector<SiteUse> siteKey(const Match &m) {
  std::vector<SiteUse> s = m.sites;
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

bool reached(const RunReport &run, const std::vector<SiteUse> &sites) {
  for (const SiteUse &s : sites)
    if (run.sitesSeen.count(s)) return true;
  return false;
}

// A kind and its v form are one collective across runs: the form the key
// is made with (a v form when any run showed it, below).
Kind sameCountsKind(Kind k) {
  static constexpr Kind kAll[] = {
#define COLLECTIVE_KIND(Enum, name, call, rooted, counts, reduction, exchange, args) Kind::Enum,
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
  };
  const std::string uniform = kinds::sameCountsForm(kindName(k));
  for (Kind other : kAll)
    if (uniform == kindName(other)) return other;
  return k;
}

bool hasVaryingCounts(Kind k) { return sameCountsKind(k) != k; }

std::string runName(const RunReport &run, size_t k) {
  return "run " + std::to_string(k + 1) + " (" + std::to_string(run.report.ranks) + " ranks)";
}

} // namespace

Report combineRuns(std::vector<RunReport> runs) {
  Report out;
  if (runs.empty()) return out;
  out.stats = runs[0].report.stats;
  out.ranks = runs[0].report.ranks;
  out.warnings = runs[0].report.warnings;
  for (size_t k = 0; k < runs.size(); k++) {
    out.runs.push_back({runs[k].trace, runs[k].command, runs[k].report.ranks});
    if (k)
      for (const std::string &w : runs[k].report.warnings)
        out.warnings.push_back(runs[k].trace + ": " + w);
  }
  // Every (kind, sites) once, in order of first appearance: the matches of
  // each run that share them (one per run at most: the first).
  using Key = std::pair<Kind, std::vector<SiteUse>>;
  std::map<Key, std::vector<const Match *>> byKey;
  std::vector<Key> order;
  std::map<std::vector<SiteUse>, std::vector<std::pair<size_t, const Match *>>> bySites;
  for (size_t k = 0; k < runs.size(); k++)
    for (const Match &m : runs[k].report.matches) {
      Key key{sameCountsKind(m.kind), siteKey(m)};
      auto [it, fresh] = byKey.try_emplace(key, std::vector<const Match *>(runs.size(), nullptr));
      if (fresh) order.push_back(key);
      if (!it->second[k]) it->second[k] = &m;
      bySites[key.second].push_back({k, &m});
    }
  for (const Key &key : order) {
    const std::vector<const Match *> &perRun = byKey[key];
    // The representative: the first run that confirms it, else the first
    // that shows it; a v form before the same-counts one (equal blocks in
    // one run are a case of the v form another run shows).
    bool varying = false;
    for (const Match *x : perRun) varying = varying || (x && hasVaryingCounts(x->kind));
    auto eligible = [&](const Match *x) { return x && (!varying || hasVaryingCounts(x->kind)); };
    size_t first = 0;
    while (!eligible(perRun[first])) first++;
    for (size_t k = 0; k < runs.size(); k++)
      if (eligible(perRun[k]) && perRun[k]->confirmed) {
        first = k;
        break;
      }
    Match m = *perRun[first];
    bool anyConfirmed = false, anyWhole = false; // whole: confirmed or ambiguous
    uint32_t unproven = ~0u;
    std::string disagree, partialIn;
    for (size_t k = 0; k < runs.size(); k++) {
      Match::RunVerdict v;
      v.ranks = runs[k].report.ranks;
      if (const Match *x = perRun[k]) {
        v.status = statusName(*x);
        if (x->kind != m.kind) v.kind = kindName(x->kind); // the same-counts form there
        anyConfirmed |= x->confirmed;
        if (!x->confirmed) unproven &= x->unproven;
        // Partial: there the post-conditions fail for some member (the
        // counts the root set per worker differed, equal in another run by
        // chance of its process count): the code does not always do it.
        if (!x->confirmed && !isAmbiguous(*x))
          partialIn += std::string(partialIn.empty() ? "" : "; ") + "in " + runName(runs[k], k) +
                       " these call sites form a partial " + kindName(x->kind) +
                       " (its post-conditions fail for some member)";
        else
          anyWhole = true;
      } else if (reached(runs[k], key.second)) {
        v.status = "none";
        for (auto &[run, other] : bySites[key.second])
          if (run == k && sameCountsKind(other->kind) != key.first) v.kind = kindName(other->kind);
        disagree += std::string(disagree.empty() ? "" : "; ") + "in " + runName(runs[k], k) +
                    " these call sites form " +
                    (v.kind.empty() ? std::string("no collective") : "a " + v.kind);
      } else {
        v.status = "absent";
      }
      m.runs.push_back(v);
    }
    // Partial everywhere is no disagreement: only beside a run that shows
    // it whole.
    if (anyWhole && !partialIn.empty()) disagree += (disagree.empty() ? "" : "; ") + partialIn;
    if (!disagree.empty()) {
      m.confirmed = false;
      m.unproven |= kRunsDisagree;
      m.note = (m.note.empty() ? "" : m.note + "; ") + "the runs disagree: " + disagree;
    } else if (anyConfirmed) {
      m.confirmed = true; // settled by the runs that prove it
      m.unproven = 0;
    } else if (unproven != ~0u) {
      m.unproven = unproven; // what no run proves
    }
    out.matches.push_back(std::move(m));
  }
  std::stable_sort(out.matches.begin(), out.matches.end(), [](const Match &a, const Match &b) {
    if (a.confirmed != b.confirmed) return a.confirmed;
    return isAmbiguous(a) && !isAmbiguous(b);
  });
  return out;
}

} // namespace cz::detect
