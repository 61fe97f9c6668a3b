// PatchFiles.h: the patch directory (rewriter/PATCH_FORMAT.md): per match a
// unified diff, clang-apply-replacements YAML and a rationale; patches.json;
// all.diff. And --apply: the proposed edits written into the user's files,
// each original kept as FILE.collectivize-orig.
#pragma once

#include <string>
#include <vector>

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Rewrite.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

namespace cz::rewrite {

struct PatchDirectory {
  std::string dir;        // output directory (created)
  std::string sitesPath, projectRoot, buildDir, target;
  const DetectionReport *report = nullptr;
};

// Just after the last #include line (0 if none): where a new include goes.
unsigned afterIncludes(const std::string &text);

// Every edit of one patch, into reps: the replaced region, the
// declarations removed with it and, with withInclude, the include line it
// needs. The one place a patch's edits are listed: its diff, its YAML,
// all.diff and --apply all take them from here.
llvm::Error addPatchEdits(const PatchPlan &p, clang::tooling::Replacements &reps, bool withInclude);

// `diff -u` of two texts, paths a/FILE and b/FILE; "" if equal.
bool unifiedDiff(const std::string &file, const std::string &before, const std::string &after,
                 std::string &diff, std::string &err);

// The files of an earlier rewrite in dir (patches.json, all.diff, NN-KIND.diff/
// .yaml/.md/.verify.json, all.verify.json), to be removed before writing:
// stale patches must not survive next to new ones. false + err when dir is
// not a directory or holds anything else (it is then not ours to clear).
bool stalePatchFiles(const std::string &dir, std::vector<std::string> &stale, std::string &err);

bool writePatchDirectory(const PatchDirectory &where, const std::vector<PatchPlan> &plans,
                         std::string &err);

// Writes the proposed plans (non-overlapping, per file) into the project's
// files. Refuses when a backup from an earlier --apply is still there.
bool applyProposed(const std::vector<PatchPlan> &plans, std::vector<std::string> &changed,
                   std::string &err);

} // namespace cz::rewrite
