// effect.h: the region-level check of `collectivize verify`. patches.json
// describes what each patch's collective leaves behind ("effect": its
// output buffer as source expressions valid at the region's end). verify
// puts a probe statement there in both copies (after the replacement text
// in the patched one, on the same line: no line moves), the tracer's
// cz_verify_effect hashes the buffer in the traced runs, and the two
// sequences of (probe, call, crc, bytes) are compared per rank. A patch
// that leaves other data while the program prints the same is caught.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "collectivize/json.h"
#include "result.h"

namespace cz::verify {

// One collective's output buffer (patches.json "effect").
struct EffectSpec {
  int probe = 0;      // the probe id, unique in the patch directory
  bool barrier = false;
  std::string buffer, count, datatype, comm;
  std::string root;   // "" : every rank holds the result
  bool perRankBlocks = false;
};

// Where a patch's probes go and what they hash.
struct PatchRegion {
  std::string id;     // "01-bcast"
  std::string file;   // root-relative
  int beginLine = 0, beginColumn = 0, endLine = 0, endColumn = 0;
  std::string replacement;
  std::vector<EffectSpec> effects;
  std::vector<std::string> collectives; // the MPI calls the patch makes
};

// Reads a PATCH entry's region and effect; probes are numbered from
// nextProbe on. False with whyNot when the effect is null or unusable.
bool readPatchRegion(const json::Json &patch, int &nextProbe, PatchRegion &out, std::string &whyNot);

// The probe statement for one effect: a block on one line, calling the
// tracer's cz_verify_effect through a weak reference (NULL when the tracer
// is not loaded).
std::string probeStatement(const EffectSpec &e);

// Probes put into a copy's sources, and how to take them out again.
struct ProbeEdit {
  std::map<std::string, std::string> saved; // path -> text before the probes
  std::set<int> probes;                     // ids inserted
  std::vector<std::string> notes;           // regions that got no probe, and why
  std::string failed;                       // the build failed with the probes: why
};

// In the original copy the probe goes at region.end; in the patched copy
// (patched = true) just after the replacement text nearest region.begin.
ProbeEdit insertProbes(const std::string &copyRoot, const std::vector<PatchRegion> &regions, bool patched);
// Restores the sources; true when there was anything to restore.
bool removeProbes(ProbeEdit &edit);

// The comparison of the two traced runs' probe files (DIR/rank-N.txt) for
// the job's regions. text is the evidence line ("effect: ...").
struct EffectJudgement {
  EffectCheck check;
  std::string text;
};
EffectJudgement judgeEffects(const std::vector<PatchRegion> &regions, const std::string &noEffect,
                             const ProbeEdit &original, const ProbeEdit &patched,
                             const std::string &originalDir, const std::string &patchedDir);

// Some effect's probe went into both copies and both built with it.
bool probesInBoth(const std::vector<PatchRegion> &regions, const ProbeEdit &original, const ProbeEdit &patched);

// Two run commands' judgements as one: the first difference, else the
// calls added up (checked when either was).
EffectJudgement combineEffects(const EffectJudgement &a, const EffectJudgement &b);

// "effect: not checked (why)" as a judgement.
EffectJudgement effectNotChecked(const std::string &why);

} // namespace cz::verify
