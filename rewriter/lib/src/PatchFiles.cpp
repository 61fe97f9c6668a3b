// PatchFiles.cpp: writing what the rewriter found, in the documented layout.
#include "collectivize/rewrite/PatchFiles.h"

#include "collectivize/clang/Files.h"
#include "collectivize/process.h"

#include "FortranText.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cz::rewrite {
namespace {

// What a patch on the runtime's cz_ calls adds after the file's includes.
constexpr const char *kIncludeLine = "#include \"collectivize.h\"\n";

bool writeText(const std::string &path, const std::string &text, std::string &err) {
  return clangtools::writeFile(path, text, err);
}

bool readText(const std::string &path, std::string &text) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buf[65536];
  size_t n;
  text.clear();
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  return true;
}

std::string seconds(double s) {
  char b[64];
  if (s >= 1) std::snprintf(b, sizeof b, "%.2f s", s);
  else if (s >= 1e-3) std::snprintf(b, sizeof b, "%.2f ms", s * 1e3);
  else std::snprintf(b, sizeof b, "%.1f us", s * 1e6);
  return b;
}

std::string yamlOf(const PatchPlan &p, const std::string &projectRoot) {
  namespace tooling = clang::tooling;
  tooling::TranslationUnitDiagnostics tu;
  tu.MainSourceFile = p.path;
  tooling::DiagnosticMessage message("hand-made " + p.kind + ": replace with " +
                                     p.call.substr(0, p.call.find('(')));
  message.FilePath = p.path;
  message.FileOffset = p.begin;
  tooling::Replacements reps;
  llvm::consumeError(addPatchEdits(p, reps, true)); // (finish made them once without error)
  message.Fix.insert({p.path, reps});
  tooling::Diagnostic d("collectivize-manual-" + p.kind, message, {}, tooling::Diagnostic::Warning,
                        projectRoot);
  tu.Diagnostics.push_back(d);
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::yaml::Output yaml(os);
  yaml << tu;
  os.flush();
  return out;
}

// How to verify the patch: the traced process count and another one (the
// count below it, or above for 2), so a patch right for one count only is
// caught.
std::string verifyCommand(const PatchPlan &p, const DetectionReport &report) {
  std::string app = report.command.empty() ? "./app" : report.command;
  int traced = report.ranks > 0 ? report.ranks : 4, other = traced > 2 ? traced - 1 : traced + 1;
  return "collectivize verify " + p.id + ".diff --run 'mpirun -np " + std::to_string(other) + " " + app +
         "' -- mpirun -np " + std::to_string(traced) + " " + app;
}

// For an ambiguous match that still got a patch: what the trace left open
// and what in the source answered it (Rewrite.cpp's settledBySource lists
// the questions the planner answers; the patch exists only because it did).
std::string settledInSource(const DetectedMatch &m) {
  if (m.status != "ambiguous" || m.unproven.empty()) return "";
  std::ostringstream r;
  r << "\n## What the trace left open\n\nThe detector reported this match as *ambiguous*; "
       "each open question was answered from the source before this patch was made:\n\n";
  for (const std::string &u : m.unproven) {
    r << "- `" << u << "`: ";
    if (u == "values_read")
      r << "the messages carry values, so they are a barrier only if no rank reads them; the source "
           "reads none of the received values after the region (a value read there gives no patch).\n";
    else if (u == "root_block" && m.kind.back() == 'v')
      r << "the root's own block never travels, so the trace cannot show where it is kept; the root's "
           "loop in the source places rank q's block at the displacement its array gives for q, and "
           "the call leaves the root's own block where it is (MPI_IN_PLACE), as the original did.\n";
    else if (u == "root_block")
      r << "the root's own block never travels, so the trace cannot show where it is kept; the root's "
           "loop in the source places rank q's block at the buffer plus q times the count, and the "
           "root's own block already sits at its place (MPI_IN_PLACE) or is copied there by the code "
           "the call replaces.\n";
    else if (u == "combined")
      r << "every block reached every rank through one receive buffer, combined as it arrived or "
           "copied out; the source's combine step says which, and gives the operation.\n";
    else if (u == "reduction_op" && (m.kind == "scan" || m.kind == "exscan" || m.kind == "reduce"))
      r << "no value in the trace pins the operation down, and no message shows where a rank keeps its "
           "result; the chain's statements, run for every rank at several process counts, show which "
           "buffer ends holding every lower rank's value combined, and with which operation"
        << (m.kind == "reduce" ? " (every rank keeps its partial result: a scan, not a reduce)" : "") << ".\n";
    else if (u == "reduction_op")
      r << "no value in the trace pins the operation down; it is the combine step of the ring in the "
           "source.\n";
    else if (u == "relay_copied")
      r << "ranks pass the data on from another buffer than they received it in; the source's "
           "forwarding copy of the received block explains it.\n";
    else
      r << "answered from the source.\n";
  }
  return r.str();
}

std::string rationaleOf(const PatchPlan &p, const DetectedMatch &m, const DetectionReport &report) {
  std::ostringstream r;
  r << "# " << p.id << ": hand-made " << m.kind;
  if (!p.file.empty()) r << " in " << p.file;
  r << "\n\n";
  r << "Status: **" << p.status << "**";
  if (!p.reason.empty()) r << " — " << p.reason;
  r << "\n\n## What was proven\n\n";
  r << "The trace shows " << m.kind << " semantics on ranks [";
  for (size_t i = 0; i < m.ranks.size(); i++) r << (i ? ", " : "") << m.ranks[i];
  r << "] of " << (m.commName.empty() ? "the communicator" : m.commName);
  if (!m.commCreatedAt.empty()) r << " at " << m.commCreatedAt;
  if (m.commColor != DetectedMatch::kNoColor) r << ", color " << m.commColor;
  if (m.root >= 0) r << ", root " << m.root;
  r << ": " << m.instances << " instance" << (m.instances == 1 ? "" : "s") << ", " << m.messages
    << " messages, " << m.bytesMoved << " bytes, " << seconds(m.secondsInMessages)
    << " between send start and receive completion, summed over messages.\n";
  r << "Equivalent call: `" << m.equivalent << "`.\n";
  if (!m.note.empty()) r << "Detector's note: " << m.note << "\n";
  r << "\nSites:\n";
  for (const MatchSite &s : m.sites)
    r << "- " << (s.send ? "send" : "recv") << " " << (s.file.empty() ? std::to_string(s.id) : s.file + ":" + std::to_string(s.line))
      << (s.callee.empty() ? "" : " (" + s.callee + ")")
      << (s.callerFile.empty() ? "" : " called from " + s.callerFile + ":" + std::to_string(s.callerLine) +
                                           (s.callerFunction.empty() ? "" : " in " + s.callerFunction))
      << "\n";
  if (!p.suggestion.empty() && !isFortranSource(p.path)) {
    // C: the call has arguments the source does not hold (a v-form's arrays).
    r << "\n## Suggested replacement (not a patch)\n\n"
         "The source does not hold every argument this call needs (the <placeholders>), so no patch "
         "is made: it is written from the arguments of the calls at the sites, to complete and check "
         "by hand.\n\n```c\n" << p.suggestion << "\n```\n";
    if (!p.notes.empty()) r << "\nCheck:\n\n";
    for (const std::string &n : p.notes) r << "- " << n << "\n";
  } else if (!p.suggestion.empty()) {
    r << "\n## Suggested replacement (not a patch)\n\n"
         "Fortran is not parsed here, so nothing proves this call does what the hand-made code "
         "did: it is written from the text of the calls at the sites, to check by hand.\n\n"
         "```fortran\n" << p.suggestion << "\n```\n\nIn place of:\n\n";
    for (const PatchPlan::ReplacedStatement &s : p.suggestionReplaces)
      r << "- " << p.file << " line" << (s.firstLine == s.lastLine ? " " + std::to_string(s.firstLine)
                                                                  : "s " + std::to_string(s.firstLine) + "-" +
                                                                        std::to_string(s.lastLine))
        << ":\n\n```fortran\n" << s.text << "```\n";
    r << "\nand the loops and rank tests that only drive them.\n";
    if (!p.notes.empty()) r << "\nCheck:\n\n";
    for (const std::string &n : p.notes) r << "- " << n << "\n";
  }
  if (p.status == "none") return r.str();
  r << settledInSource(m);
  r << "\n## The patch\n\n";
  r << "Replaces " << p.file << " lines " << p.beginLine << "-" << p.endLine << " with:\n\n```"
    << (isFortranSource(p.path) ? "fortran" : "c") << "\n"
    << p.replacement << "\n```\n";
  if (!p.kept.empty() || !p.notes.empty()) r << "\n";
  for (const std::string &k : p.kept) r << "- " << k << "\n";
  for (const std::string &n : p.notes) r << "- " << n << "\n";
  if (!p.review.empty()) {
    r << "\n## Review\n\n";
    for (const std::string &x : p.review) r << "- " << x << "\n";
  }
  r << "\n## Expected gain\n\nThe hand-made version spent " << seconds(m.secondsInMessages)
    << " in its messages";
  if (m.instances > 0) r << " (" << seconds(m.secondsInMessages / double(m.instances)) << " per instance)";
  r << ". Verify and measure the patched program at the traced process count and another one "
       "(and other inputs, with more --run):\n\n```sh\n"
    << verifyCommand(p, report) << "\n```\n";
  return r.str();
}

// One file's proposed patches together: in report order, each patch whose
// edits (its region and the declarations it removes) overlap none taken
// before it, applied, and the include line once.
std::string editedFile(const std::vector<const PatchPlan *> &list) {
  namespace tooling = clang::tooling;
  const PatchPlan &first = *list.front();
  tooling::Replacements all;
  std::vector<const PatchPlan *> chosen;
  bool include = false;
  for (const PatchPlan *p : list) {
    // Touching edits merge in Replacements; two regions that overlap are
    // what no two patches may share.
    bool clash = false;
    for (const PatchPlan *q : chosen) clash = clash || (p->begin < q->end && q->begin < p->end);
    tooling::Replacements merged = all;
    if (llvm::Error e = addPatchEdits(*p, merged, false)) {
      llvm::consumeError(std::move(e));
      clash = true;
    }
    if (clash) continue;
    all = std::move(merged);
    chosen.push_back(p);
    include = include || p->addInclude;
  }
  if (include) llvm::consumeError(all.add(tooling::Replacement(first.path, afterIncludes(first.original), 0, kIncludeLine)));
  auto text = tooling::applyAllReplacements(first.original, all);
  if (text) return *text;
  llvm::consumeError(text.takeError());
  return first.original;
}

} // namespace

llvm::Error addPatchEdits(const PatchPlan &p, clang::tooling::Replacements &reps, bool withInclude) {
  namespace tooling = clang::tooling;
  if (llvm::Error e = reps.add(tooling::Replacement(p.path, p.begin, p.end - p.begin, p.replacement)))
    return e;
  if (withInclude && p.addInclude)
    if (llvm::Error e = reps.add(tooling::Replacement(p.path, afterIncludes(p.original), 0, kIncludeLine)))
      return e;
  for (const PatchPlan::DeclarationEdit &d : p.removedDeclarations)
    if (llvm::Error e = reps.add(tooling::Replacement(p.path, d.from, d.to - d.from, d.text))) return e;
  return llvm::Error::success();
}

unsigned afterIncludes(const std::string &text) {
  size_t at = 0, pos = 0;
  while ((pos = text.find("#include", pos)) != std::string::npos) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) break;
    at = eol + 1;
    pos = eol;
  }
  return unsigned(at);
}

bool unifiedDiff(const std::string &file, const std::string &before, const std::string &after,
                 std::string &diff, std::string &err) {
  diff.clear();
  if (before == after) return true;
  llvm::SmallString<128> a, b;
  if (llvm::sys::fs::createTemporaryFile("cz-before", "txt", a) ||
      llvm::sys::fs::createTemporaryFile("cz-after", "txt", b)) {
    err = "cannot create temporary files for diff";
    return false;
  }
  bool ok = writeText(std::string(a), before, err) && writeText(std::string(b), after, err);
  if (ok) {
    process::Spec spec;
    spec.argv = {process::findProgram("diff"), "-u", "--label", "a/" + file, "--label",
                 "b/" + file, std::string(a), std::string(b)};
    spec.out = process::Output::capture();
    if (spec.argv[0].empty()) {
      err = "the `diff` program (diffutils) is not installed";
      ok = false;
    } else {
      process::Result r = process::run(spec);
      if (!r.started || r.exitCode != 1) { // 1: the files differ, as they must
        err = "diff failed (" + (r.started ? "exit " + std::to_string(r.exitCode) : r.error) + ")";
        ok = false;
      } else {
        diff = r.out;
      }
    }
  }
  llvm::sys::fs::remove(a);
  llvm::sys::fs::remove(b);
  return ok;
}

bool stalePatchFiles(const std::string &dir, std::vector<std::string> &stale, std::string &err) {
  stale.clear();
  if (!llvm::sys::fs::exists(dir)) return true;
  if (!llvm::sys::fs::is_directory(dir)) {
    err = "-o " + dir + " is not a directory";
    return false;
  }
  // NN-KIND.EXT with NN two digits or more, KIND lower-case letters.
  auto ours = [](llvm::StringRef name) {
    if (name == "patches.json" || name == "all.diff" || name == "all.verify.json") return true;
    size_t dash = name.find('-');
    if (dash < 2 || dash == llvm::StringRef::npos || !llvm::all_of(name.take_front(dash), llvm::isDigit))
      return false;
    llvm::StringRef rest = name.drop_front(dash + 1);
    size_t dot = rest.find('.');
    if (dot == 0 || dot == llvm::StringRef::npos ||
        !llvm::all_of(rest.take_front(dot), [](char c) { return c >= 'a' && c <= 'z'; }))
      return false;
    llvm::StringRef ext = rest.drop_front(dot);
    return ext == ".diff" || ext == ".yaml" || ext == ".md" || ext == ".verify.json";
  };
  std::vector<std::string> foreign;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    bool isFile = it->type() == llvm::sys::fs::file_type::regular_file;
    if (isFile && ours(name)) stale.push_back(it->path());
    else foreign.push_back(name.str());
  }
  if (ec) {
    err = "cannot list " + dir + ": " + ec.message();
    return false;
  }
  if (!foreign.empty()) {
    std::sort(foreign.begin(), foreign.end());
    std::string names;
    for (size_t i = 0; i < foreign.size() && i < 3; i++) names += (i ? ", " : "") + foreign[i];
    if (foreign.size() > 3) names += ", ...";
    err = "-o " + dir + " is not empty and holds files that are not an earlier rewrite's (" + names +
          "): give a new or empty directory (nothing was written)";
    return false;
  }
  std::sort(stale.begin(), stale.end());
  return true;
}

bool writePatchDirectory(const PatchDirectory &where, const std::vector<PatchPlan> &plans,
                         std::string &err) {
  if (std::error_code ec = llvm::sys::fs::create_directories(where.dir)) {
    err = "cannot create " + where.dir + ": " + ec.message();
    return false;
  }
  // patches.json in the documented key order (one patch per line group).
  std::string json;
  llvm::raw_string_ostream os(json);
  llvm::json::OStream j(os, 2);
  auto nullable = [&](const char *key, bool present, const std::string &value) {
    if (present) j.attribute(key, value);
    else j.attribute(key, nullptr);
  };
  auto position = [&](const char *key, unsigned line, unsigned column) {
    j.attributeObject(key, [&] {
      j.attribute("line", int64_t(line));
      j.attribute("column", int64_t(column));
    });
  };
  j.objectBegin();
  j.attribute("format", "collectivize-patches");
  j.attribute("version", 1);
  j.attribute("report", where.report->path);
  j.attribute("sites", where.sitesPath);
  j.attribute("project_root", where.projectRoot);
  nullable("build_dir", !where.buildDir.empty(), where.buildDir);
  j.attribute("target", where.target);
  j.attribute("command", where.report->command);
  j.attributeBegin("patches");
  j.arrayBegin();
  // all.diff: per file, the proposed edits that overlap no other.
  std::map<std::string, std::vector<const PatchPlan *>> byFile;
  for (const PatchPlan &p : plans) {
    const DetectedMatch &m = where.report->matches[p.match];
    bool hasPatch = p.status != "none";
    std::string base = where.dir + "/" + p.id;
    if (hasPatch) {
      std::string diff;
      if (!unifiedDiff(p.file, p.original, p.patched, diff, err)) return false;
      if (!writeText(base + ".diff", diff, err) || !writeText(base + ".yaml", yamlOf(p, where.projectRoot), err))
        return false;
      if (p.status == "proposed") byFile[p.path].push_back(&p);
    } else {
      llvm::sys::fs::remove(base + ".diff");
      llvm::sys::fs::remove(base + ".yaml");
    }
    if (!writeText(base + ".md", rationaleOf(p, m, *where.report), err)) return false;
    j.objectBegin();
    j.attribute("id", p.id);
    j.attribute("match", int64_t(p.match));
    j.attribute("kind", p.kind);
    j.attribute("status", p.status);
    j.attribute("reason", p.reason);
    nullable("replacement", hasPatch, p.replacement);
    if (hasPatch) {
      j.attributeObject("region", [&] {
        j.attribute("file", p.file);
        position("begin", p.beginLine, p.beginColumn);
        position("end", p.endLine, p.endColumn);
      });
    } else {
      j.attribute("region", nullptr);
    }
    j.attributeArray("files", [&] {
      if (hasPatch) j.value(p.file);
    });
    nullable("diff", hasPatch, p.id + ".diff");
    nullable("yaml", hasPatch, p.id + ".yaml");
    j.attribute("rationale", p.id + ".md");
    // Fortran (and a C v-form without its arrays): the suggested call and
    // the statements it would replace.
    if (p.suggestion.empty()) {
      j.attribute("suggestion", nullptr);
    } else {
      j.attributeObject("suggestion", [&] {
        j.attribute("call", p.suggestion);
        j.attributeArray("replaces", [&] {
          for (const PatchPlan::ReplacedStatement &s : p.suggestionReplaces)
            j.object([&] {
              j.attribute("file", p.file);
              j.attribute("first_line", int64_t(s.firstLine));
              j.attribute("last_line", int64_t(s.lastLine));
              j.attribute("text", s.text);
            });
        });
      });
    }
    j.attributeArray("collectives", [&] {
      for (const std::string &c : p.collectives) j.value(c);
    });
    // What verify's probe hashes at the region's end (PATCH_FORMAT.md).
    auto effect = [&](const CallEffect &e) {
      j.object([&] {
        nullable("buffer", !e.barrier, e.buffer);
        nullable("count", !e.barrier, e.count);
        nullable("datatype", !e.barrier, e.datatype);
        j.attribute("comm", e.comm);
        nullable("root", !e.root.empty(), e.root);
        j.attribute("per_rank_blocks", e.perRankBlocks);
      });
    };
    if (!hasPatch || p.effects.empty()) {
      j.attribute("effect", nullptr);
    } else if (p.effects.size() == 1) {
      j.attributeBegin("effect");
      effect(p.effects[0]);
      j.attributeEnd();
    } else {
      j.attributeArray("effect", [&] {
        for (const CallEffect &e : p.effects) effect(e);
      });
    }
    j.attribute("effect_reason", hasPatch && p.effects.empty() ? p.effectWhyNot : std::string());
    j.attributeArray("fused", [&] {
      for (size_t f : p.fused) j.value(int64_t(f));
    });
    j.attribute("instances", int64_t(m.instances));
    j.attribute("seconds_in_messages", m.secondsInMessages);
    j.attributeArray("sites", [&] {
      for (const MatchSite &s : m.sites) j.value(std::to_string(s.id));
    });
    j.objectEnd();
  }
  j.arrayEnd();
  j.attributeEnd();
  j.objectEnd();
  os << "\n";
  os.flush();
  std::string all;
  for (auto &[path, list] : byFile) {
    std::string diff;
    if (!unifiedDiff(list.front()->file, list.front()->original, editedFile(list), diff, err)) return false;
    all += diff;
  }
  if (!writeText(where.dir + "/all.diff", all, err)) return false;
  return writeText(where.dir + "/patches.json", json, err);
}

bool applyProposed(const std::vector<PatchPlan> &plans, std::vector<std::string> &changed,
                   std::string &err) {
  std::map<std::string, std::vector<const PatchPlan *>> byFile;
  for (const PatchPlan &p : plans)
    if (p.status == "proposed") byFile[p.path].push_back(&p);
  for (auto &[path, list] : byFile) {
    std::string backup = path + ".collectivize-orig";
    if (llvm::sys::fs::exists(backup)) {
      err = "a backup from an earlier --apply exists (" + backup +
            "): restore or remove it first; nothing was changed";
      return false;
    }
  }
  for (auto &[path, list] : byFile) {
    std::string current;
    if (!readText(path, current) || current != list.front()->original) {
      err = path + " changed since the rewrite was planned; nothing written to it";
      return false;
    }
    if (!writeText(path + ".collectivize-orig", current, err) || !writeText(path, editedFile(list), err)) return false;
    changed.push_back(path);
  }
  return true;
}

} // namespace cz::rewrite
