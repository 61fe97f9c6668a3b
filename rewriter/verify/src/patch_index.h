// patch_index.h: what to verify, from the PATCH argument: a patch
// directory (every patch with a diff), one NN-KIND.diff or all.diff in it,
// or a diff from elsewhere (with --root). Reads patches.json and the
// detection report it names (rewriter/PATCH_FORMAT.md).
#pragma once

#include <string>
#include <vector>

#include "effect.h"
#include "retrace.h"

namespace cz::verify {

struct VerifyJob {
  std::string id;           // "01-bcast", "all", or the diff's stem
  std::string diff;         // absolute path
  std::string status;       // proposed / review / "" for a loose diff
  std::string reason;
  std::string resultPath;   // where NN-KIND.verify.json goes ("" = nowhere)
  std::vector<ManualCollective> targets; // empty: whatever disappears
  std::vector<std::string> expected;     // the MPI collectives the patch calls; empty: by kind
  // Where the probes go and what they hash (all.diff: every patch in it);
  // noEffect says why the effect is not checked.
  std::vector<PatchRegion> regions;
  std::string noEffect;
};

struct PatchSet {
  std::string projectRoot;
  std::string buildDir;      // "" when unknown
  std::string target = "mpi";
  std::string reportCommand; // the traced command, for messages
  int reportRanks = 0;
  std::vector<VerifyJob> jobs;
  std::vector<PatchRegion> regions; // every job's, once: the original copy's probes
  std::vector<std::string> notes; // patches without a diff, skipped
  // Set when resolvePatchSet fails because of the options (-o with several
  // patches, a loose diff without --root): a usage error, exit status 2.
  // Otherwise a failure is the inputs' (missing, unreadable, malformed): 1.
  bool usageProblem = false;
};

// False with a message for people.
bool resolvePatchSet(const std::string &patchArg, const std::string &rootOption,
                     const std::string &outputOption, PatchSet &set, std::string &error);

} // namespace cz::verify
