// result.h: one patch's verification result, and its JSON form
// (NN-KIND.verify.json, rewriter/PATCH_FORMAT.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "retrace.h"
#include "timing.h"

namespace cz::verify {

struct ProgramRuns {
  int exit = 0;
  TimingSummary times;
};

struct Retrace {
  std::map<std::string, uint64_t> originalCollectives, patchedCollectives;
  long matchesLeft = 0;
  std::vector<ManualCollective> targets; // as seen in the original run
};

// The region-level check (effect.h): the probes' hashes of the output
// buffer at the region's end, original against patched.
struct EffectSide {
  bool present = false; // the call happened on this side
  std::string crc;      // 8 hex digits, or "error" (the probe could not hash)
  unsigned long long bytes = 0;
};
struct EffectDifference {
  int rank = 0, probe = 0;
  unsigned long long call = 0;
  std::string patch, buffer; // whose probe, and what it hashes
  EffectSide original, patched;
};
struct EffectCheck {
  bool checked = false;
  std::string reason;           // !checked: why
  unsigned long long calls = 0; // probe calls compared (original side)
  int ranks = 0;
  std::optional<EffectDifference> differs;
};

// One run command's timed runs (verify runs the program every way given).
struct CommandResult {
  std::vector<std::string> command;
  std::optional<ProgramRuns> original, patched;
  std::optional<EffectCheck> effect; // null: no traced run of this command
};

struct VerifyResult {
  std::string patch;
  std::vector<std::string> command;
  std::string verdict = "error";
  std::string evidence;
  std::string build;   // how the copies were built
  std::string workDir; // when kept
  int runs = 0;
  std::optional<ProgramRuns> original, patched; // the first run command's
  std::vector<CommandResult> commands;           // every run command's, in order
  std::optional<Retrace> retrace;
  std::optional<EffectCheck> effect; // null: verification stopped before the traced runs
};

std::string resultJson(const VerifyResult &r);

} // namespace cz::verify
