// patch_index_fuzz.cpp: what `collectivize verify PATCH_DIR` reads before
// it runs anything: patches.json (input part 0) and the detection report it
// names (part 1, written as report.json beside it; the scratch directory is
// the working directory, so "report.json" and "." resolve there).
#include <unistd.h>

#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "patch_index.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static cz::fuzz::Scratch scratch;
  static bool entered = chdir(scratch.path().c_str()) == 0;
  cz::fuzz::require(entered, "cannot enter the scratch directory");
  std::vector<std::string> parts = cz::fuzz::splitParts(data, size);
  if (parts.size() > 2) return 0;
  scratch.clear();
  scratch.write("patches.json", parts[0]);
  if (parts.size() > 1) scratch.write("report.json", parts[1]);
  cz::verify::PatchSet set;
  std::string error;
  if (!cz::verify::resolvePatchSet(scratch.path(), "", "", set, error)) {
    cz::fuzz::require(!error.empty(), "refused a patch directory without saying why");
    return 0;
  }
  cz::fuzz::require(!set.jobs.empty(), "accepted a patch directory with nothing to verify");
  for (const cz::verify::VerifyJob &job : set.jobs)
    cz::fuzz::require(!job.diff.empty(), "a job without a diff");
  return 0;
}
