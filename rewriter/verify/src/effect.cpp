// effect.cpp: see effect.h.
#include "effect.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collectivize/process.h"
#include "fortran_probe.h"

namespace fs = std::filesystem;

namespace cz::verify {
using namespace json;
namespace {

bool writeText(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  return f.good();
}

// Byte offset of a 1-based (line, column) position, or npos.
size_t offsetOf(const std::string &text, int line, int column) {
  size_t at = 0;
  for (int l = 1; l < line; l++) {
    at = text.find('\n', at);
    if (at == std::string::npos) return at;
    at++;
  }
  size_t end = text.find('\n', at);
  if (end == std::string::npos) end = text.size();
  if (column < 1 || at + size_t(column - 1) > end) return std::string::npos;
  return at + size_t(column - 1);
}

int lineAt(const std::string &text, size_t offset) {
  return 1 + int(std::count(text.begin(), text.begin() + long(offset), '\n'));
}

// Just after the occurrence of the replacement text nearest the region's
// first line (the patch may have added lines above it: an #include).
size_t afterReplacement(const std::string &text, const PatchRegion &r) {
  if (r.replacement.empty()) return std::string::npos;
  size_t best = std::string::npos;
  int bestDistance = 0;
  for (size_t at = text.find(r.replacement); at != std::string::npos; at = text.find(r.replacement, at + 1)) {
    int distance = std::abs(lineAt(text, at) - r.beginLine);
    if (best == std::string::npos || distance < bestDistance) best = at, bestDistance = distance;
  }
  return best == std::string::npos ? best : best + r.replacement.size();
}

// The next token after offset (spaces and comments skipped) is `else`:
// the region is the statement an `if` runs before its `else`.
bool followedByElse(const std::string &text, size_t offset) {
  size_t i = offset;
  while (i < text.size()) {
    if (std::isspace((unsigned char)text[i])) {
      i++;
    } else if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      i = i == std::string::npos ? i : i + 2;
    } else {
      break;
    }
  }
  if (i >= text.size() || text.compare(i, 4, "else") != 0) return false;
  return i + 4 == text.size() || !(std::isalnum((unsigned char)text[i + 4]) || text[i + 4] == '_');
}

// A Fortran region's probes: on the lines after the one where the region
// (or the replacement) ends, indented as its first line.
bool fortranProbesAfter(const std::string &text, const PatchRegion &r, size_t end, bool fixedForm, bool patched,
                        std::vector<std::pair<size_t, std::string>> &inserts, std::string &why) {
  size_t begin = patched ? end - r.replacement.size() : offsetOf(text, r.beginLine, 1);
  if (begin == std::string::npos || begin > end) return why = "the region's begin is not in " + r.file, false;
  size_t lineStart = begin == 0 ? 0 : text.rfind('\n', begin - 1) + 1; // npos + 1: the first line
  size_t indentEnd = text.find_first_not_of(" \t", lineStart);
  std::string indent = text.substr(lineStart, (indentEnd == std::string::npos ? text.size() : indentEnd) - lineStart);
  std::string probes;
  for (const EffectSpec &e : r.effects) {
    if (e.barrier) return why = "a barrier's probe is written in C only", false;
    probes += fortranProbe(e, fixedForm, indent);
  }
  size_t lineEnd = text.find('\n', end);
  if (lineEnd == std::string::npos) inserts.push_back({text.size(), "\n" + probes});
  else inserts.push_back({lineEnd + 1, probes});
  return true;
}

struct ProbeLine {
  int probe = 0;
  unsigned long long call = 0, bytes = 0;
  std::string crc;
};

// rank -> its probe lines for the given probes, in the order written.
std::map<int, std::vector<ProbeLine>> readProbeFiles(const std::string &dir, const std::set<int> &probes) {
  std::map<int, std::vector<ProbeLine>> out;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    int rank = -1;
    if (std::sscanf(name.c_str(), "rank-%d.txt", &rank) != 1 || rank < 0) continue;
    std::vector<ProbeLine> &lines = out[rank];
    std::istringstream in(process::readFile(e.path().string()));
    ProbeLine p;
    while (in >> p.probe >> p.call >> p.crc >> p.bytes)
      if (probes.count(p.probe)) lines.push_back(p);
  }
  return out;
}

const EffectSpec *specOf(const std::vector<PatchRegion> &regions, int probe, const PatchRegion **owner) {
  for (const PatchRegion &r : regions)
    for (const EffectSpec &e : r.effects)
      if (e.probe == probe) return *owner = &r, &e;
  return nullptr;
}

std::string describeSpec(const EffectSpec *e) {
  if (!e) return "?";
  if (e->barrier) return "calls only (a barrier)";
  return e->buffer + ", " + e->count + (e->perRankBlocks ? " per rank" : "") + " x " + e->datatype +
         (e->root.empty() ? "" : ", at the root " + e->root);
}

bool floatingReduction(const PatchRegion *r, const EffectSpec *e) {
  if (!r || !e) return false;
  bool reduces = std::count(r->collectives.begin(), r->collectives.end(), "MPI_Reduce") ||
                 std::count(r->collectives.begin(), r->collectives.end(), "MPI_Allreduce") ||
                 std::count(r->collectives.begin(), r->collectives.end(), "MPI_Scan");
  for (const char *t : {"MPI_FLOAT", "MPI_DOUBLE", "MPI_LONG_DOUBLE", "MPI_REAL", "MPI_DOUBLE_PRECISION"})
    if (e->datatype == t) return reduces;
  return false;
}

std::string sideText(const EffectSide &s) {
  if (!s.present) return "no such call";
  return "crc " + s.crc + " (" + std::to_string(s.bytes) + " bytes)";
}

} // namespace

bool readPatchRegion(const Json &patch, int &nextProbe, PatchRegion &out, std::string &whyNot) {
  out.id = patch.str("id");
  out.replacement = patch.str("replacement");
  if (const Json *c = patch.find("collectives"); c && c->isArray())
    for (const Json &name : c->items()) out.collectives.push_back(name.text());
  const Json *region = patch.find("region");
  if (!region || !region->isObject() || !region->find("begin") || !region->find("end")) {
    whyNot = "patches.json gives no region for " + out.id;
    return false;
  }
  out.file = region->str("file");
  // Positions are whole numbers an int holds (patches.json may be edited
  // by hand): anything else is refused, never converted.
  struct Place {
    const char *end, *key;
    int *into;
  } places[] = {{"begin", "line", &out.beginLine},
                {"begin", "column", &out.beginColumn},
                {"end", "line", &out.endLine},
                {"end", "column", &out.endColumn}};
  for (const Place &p : places) {
    const double v = (*region)[p.end].num(p.key);
    if (!(v >= 0 && v <= double(INT_MAX) && v == double(long(v)))) {
      whyNot = "patches.json: the region of " + out.id + " has a " + p.end + " " + p.key +
               " that is not a position (" + std::to_string(v) + ")";
      return false;
    }
    *p.into = int(v);
  }
  const Json *effect = patch.find("effect");
  if (!effect || effect->isNull()) {
    std::string reason = patch.str("effect_reason");
    whyNot = !effect ? "patches.json describes no effect for " + out.id + " (written before effects were recorded?)"
             : reason.empty() ? "patches.json gives no effect for " + out.id
                              : out.id + ": " + reason;
    return false;
  }
  std::vector<const Json *> list;
  if (effect->isArray())
    for (const Json &e : effect->items()) list.push_back(&e);
  else
    list.push_back(effect);
  for (const Json *e : list) {
    if (!e->isObject() || !e->find("comm") || !e->find("comm")->isString()) {
      whyNot = "patches.json: the effect of " + out.id + " is malformed (no \"comm\")";
      return false;
    }
    EffectSpec s;
    const Json *buffer = e->find("buffer");
    s.barrier = !buffer || buffer->isNull();
    s.buffer = e->str("buffer");
    s.count = e->str("count");
    s.datatype = e->str("datatype");
    s.comm = e->str("comm");
    s.root = e->str("root");
    s.perRankBlocks = e->find("per_rank_blocks") && e->find("per_rank_blocks")->flag();
    if (!s.barrier && (s.buffer.empty() || s.count.empty() || s.datatype.empty())) {
      whyNot = "patches.json: the effect of " + out.id + " names a buffer without its count or datatype";
      return false;
    }
    out.effects.push_back(s);
  }
  for (EffectSpec &s : out.effects) s.probe = nextProbe++;
  return !out.effects.empty() || (whyNot = "patches.json: the effect of " + out.id + " is empty", false);
}

std::string probeStatement(const EffectSpec &e) {
  // A block-scope declaration: the asm label gives it the C symbol in C++
  // too; weak, so a run without the tracer finds NULL and skips the call.
  std::string s = "{ extern void cz_probe_(int, const void *, long long, int, const void *, const void *, int) "
                  "__asm__(\"cz_verify_effect\") __attribute__((weak)); ";
  if (e.barrier)
    return s + "if (cz_probe_) cz_probe_(" + std::to_string(e.probe) + ", 0, 0, 0, 0, 0, -1); }";
  return s + "MPI_Datatype cz_probe_type_ = " + e.datatype + "; MPI_Comm cz_probe_comm_ = " + e.comm +
         "; if (cz_probe_) cz_probe_(" + std::to_string(e.probe) + ", (const void *)(" + e.buffer +
         "), (long long)(" + e.count + "), " + (e.perRankBlocks ? "1" : "0") +
         ", &cz_probe_type_, &cz_probe_comm_, " + (e.root.empty() ? "-1" : "(int)(" + e.root + ")") + "); }";
}

ProbeEdit insertProbes(const std::string &copyRoot, const std::vector<PatchRegion> &regions, bool patched) {
  ProbeEdit edit;
  // Per file, (offset, text), inserted from the last offset back so the
  // earlier offsets stay right.
  std::map<std::string, std::vector<std::pair<size_t, std::string>>> byFile;
  std::map<std::string, std::vector<int>> idsOf;
  for (const PatchRegion &r : regions) {
    if (r.effects.empty()) continue;
    std::string path = copyRoot + "/" + r.file;
    if (!edit.saved.count(path)) {
      std::error_code ec;
      if (r.file.empty() || !fs::is_regular_file(path, ec)) {
        edit.notes.push_back(r.id + ": " + r.file + " is not in the copy");
        continue;
      }
      edit.saved[path] = process::readFile(path);
    }
    const std::string &text = edit.saved[path];
    size_t at = patched ? afterReplacement(text, r) : offsetOf(text, r.endLine, r.endColumn);
    if (at == std::string::npos) {
      edit.notes.push_back(r.id + ": " + (patched ? "the replacement text is not in the patched " + r.file
                                                  : "the region's end is not in " + r.file));
      continue;
    }
    bool fixedForm = false;
    if (isFortranPath(r.file, fixedForm)) {
      std::string why;
      if (!fortranProbesAfter(text, r, at, fixedForm, patched, byFile[path], why)) {
        edit.notes.push_back(r.id + ": " + why);
        continue;
      }
      for (const EffectSpec &e : r.effects) idsOf[path].push_back(e.probe);
      continue;
    }
    std::string probes;
    for (const EffectSpec &e : r.effects) {
      probes += " " + probeStatement(e);
      idsOf[path].push_back(e.probe);
    }
    // Before an `else` the probe would end the `if` (`if (c) S; {probe}
    // else`: no longer C): the region and its probe go in one block.
    if (followedByElse(text, at)) {
      size_t begin = patched ? at - r.replacement.size() : offsetOf(text, r.beginLine, r.beginColumn);
      if (begin == std::string::npos || begin > at) {
        edit.notes.push_back(r.id + ": the region's begin is not in " + r.file);
        continue;
      }
      byFile[path].push_back({begin, "{ "});
      probes += " }";
    }
    byFile[path].push_back({at, probes});
  }
  for (auto &[path, inserts] : byFile) {
    std::string text = edit.saved[path];
    std::stable_sort(inserts.begin(), inserts.end(), [](auto &a, auto &b) { return a.first > b.first; });
    for (const auto &[at, probes] : inserts) text.insert(at, probes);
    if (!writeText(path, text)) {
      edit.notes.push_back("cannot write " + path);
      continue;
    }
    edit.probes.insert(idsOf[path].begin(), idsOf[path].end());
  }
  return edit;
}

bool removeProbes(ProbeEdit &edit) {
  if (edit.probes.empty()) return false;
  for (const auto &[path, text] : edit.saved) writeText(path, text);
  edit.probes.clear();
  return true;
}

EffectJudgement effectNotChecked(const std::string &why) {
  EffectJudgement j;
  j.check.reason = why;
  j.text = "effect: not checked (" + why + ")";
  return j;
}

bool probesInBoth(const std::vector<PatchRegion> &regions, const ProbeEdit &original, const ProbeEdit &patched) {
  if (!original.failed.empty() || !patched.failed.empty()) return false;
  for (const PatchRegion &r : regions)
    for (const EffectSpec &e : r.effects)
      if (original.probes.count(e.probe) && patched.probes.count(e.probe)) return true;
  return false;
}

EffectJudgement combineEffects(const EffectJudgement &a, const EffectJudgement &b) {
  if (a.check.differs) return a;
  if (b.check.differs) return b;
  if (!b.check.checked) return a;
  if (!a.check.checked) return b;
  EffectJudgement j = a;
  j.check.calls += b.check.calls;
  j.check.ranks = std::max(a.check.ranks, b.check.ranks);
  j.text = "effect: " + std::to_string(j.check.calls) + " probe calls, identical";
  return j;
}

EffectJudgement judgeEffects(const std::vector<PatchRegion> &regions, const std::string &noEffect,
                             const ProbeEdit &original, const ProbeEdit &patched,
                             const std::string &originalDir, const std::string &patchedDir) {
  if (regions.empty()) return effectNotChecked(noEffect.empty() ? "no effect described" : noEffect);
  if (!original.failed.empty()) return effectNotChecked(original.failed);
  if (!patched.failed.empty()) return effectNotChecked(patched.failed);
  std::set<int> probes;
  for (const PatchRegion &r : regions)
    for (const EffectSpec &e : r.effects)
      if (original.probes.count(e.probe) && patched.probes.count(e.probe)) probes.insert(e.probe);
  if (probes.empty()) {
    std::string why = "the probe could not be put in";
    for (const std::vector<std::string> *notes : {&original.notes, &patched.notes})
      for (const std::string &n : *notes) why += "; " + n;
    return effectNotChecked(why);
  }
  std::map<int, std::vector<ProbeLine>> before = readProbeFiles(originalDir, probes),
                                         after = readProbeFiles(patchedDir, probes);
  std::set<int> ranks;
  EffectJudgement j;
  for (const auto &[rank, lines] : before) {
    if (!lines.empty()) ranks.insert(rank);
    j.check.calls += lines.size();
  }
  for (const auto &[rank, lines] : after)
    if (!lines.empty()) ranks.insert(rank);
  if (ranks.empty())
    return effectNotChecked("the probes never ran: the traced runs did not reach the region's end, or the "
                            "program's build keeps the probe (a weak reference in C, dlsym in Fortran) from finding the "
                            "preloaded tracer");
  j.check.checked = true;
  j.check.ranks = int(ranks.size());
  for (int rank : ranks) {
    const std::vector<ProbeLine> &a = before[rank], &b = after[rank];
    for (size_t i = 0; i < std::max(a.size(), b.size()); i++) {
      bool same = i < a.size() && i < b.size() && a[i].probe == b[i].probe && a[i].call == b[i].call &&
                  a[i].crc == b[i].crc && a[i].bytes == b[i].bytes && a[i].crc != "error";
      if (same) continue;
      EffectDifference d;
      d.rank = rank;
      const ProbeLine &at = i < a.size() ? a[i] : b[i];
      d.probe = at.probe;
      d.call = at.call;
      if (i < a.size()) d.original = {true, a[i].crc, a[i].bytes};
      if (i < b.size() && b[i].probe == at.probe && b[i].call == at.call) d.patched = {true, b[i].crc, b[i].bytes};
      const PatchRegion *owner = nullptr;
      const EffectSpec *spec = specOf(regions, d.probe, &owner);
      d.patch = owner ? owner->id : "";
      d.buffer = spec ? spec->buffer : "";
      j.check.differs = d;
      j.text = "effect: rank " + std::to_string(rank) + ", probe " + std::to_string(d.probe) + " (" + d.patch +
               ": " + describeSpec(spec) + " at the region's end), call " + std::to_string(d.call) +
               ": original " + sideText(d.original) + ", patched " + sideText(d.patched) +
               (d.original.crc == "error" || d.patched.crc == "error"
                    ? " (the probe could not hash the buffer)"
                    : ": the patched region leaves other data than the original");
      if (floatingReduction(owner, spec))
        j.text += " (a floating-point reduction: MPI may combine in another order and round "
                  "differently; check whether the difference matters)";
      return j;
    }
  }
  j.text = "effect: " + std::to_string(j.check.calls) + " probe calls on " + std::to_string(j.check.ranks) +
           " ranks, identical";
  return j;
}

} // namespace cz::verify
