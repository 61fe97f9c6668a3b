// retrace.h: what a traced run of a copy shows, through documented files
// only: the run is traced by preloading libcollectivize_trace.so (as
// `collectivize run` does), `collectivize detect TRACE -o REPORT.json`
// finds its manual collectives, and the report (detector/REPORT_FORMAT.md)
// is read back: its matches and its count of MPI collective calls.
#pragma once

#include "collectivize/launcher.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cz::verify {

// A manual collective as the verifier compares them: site ids change when a
// file changes, so they are not part of it.
struct ManualCollective {
  std::string kind;
  std::vector<long> ranks; // world ranks, communicator order
  long rootWorld = -1;     // -1 for rootless kinds
  bool confirmed = true;
  long instances = 0;
};

struct TraceFindings {
  int ranks = 0;
  std::vector<ManualCollective> matches;
  std::map<std::string, uint64_t> collectives; // "MPI_Bcast" -> calls over all ranks
};

// Reads a detection report. Errors name the file and the problem.
bool readDetectionReport(const std::string &path, TraceFindings &out, std::string &error);
// The same from the report's text (`path` names it in errors).
bool parseDetectionReport(const std::string &text, const std::string &path, TraceFindings &out,
                          std::string &error);

// The same manual collective in two runs: same kind and root, and the same
// group, or both the whole world of their runs (a run on another number of
// ranks).
bool sameCollective(const ManualCollective &a, int ranksA, const ManualCollective &b, int ranksB);

// The MPI call a kind is replaced by ("bcast" -> "MPI_Bcast"), and the
// calls that count as it in a trace (an alltoall may become MPI_Alltoallv).
std::string mpiCollectiveFor(const std::string &kind);
std::vector<std::string> acceptedCollectives(const std::string &kind);

// The run command with the tracer added: a launcher gets the variables in
// its own options (Open MPI `-x LD_PRELOAD=...`, MPICH's Hydra `-genv
// LD_PRELOAD ...`, srun `--export`), so the launcher itself is not traced;
// any other command, or a launcher of unknown kind, gets them in its
// environment.
struct TracedCommand {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
};
// effectsDir: where the effect probes write (COLLECTIVIZE_VERIFY_EFFECTS), "" for none;
// with it, the heap fill below goes to the ranks too. The first form finds
// the launcher's kind (kindOf on command[0] looked up on PATH).
TracedCommand tracedCommand(const std::vector<std::string> &command, const std::string &tracer,
                            const std::string &traceDir, const std::string &effectsDir = "");
TracedCommand tracedCommand(const std::vector<std::string> &command, launch::Kind kind,
                            const std::string &tracer, const std::string &traceDir,
                            const std::string &effectsDir = "");

// Both copies' runs see the same bytes in memory the program never
// initialises: glibc fills fresh malloc'd memory with one byte
// (MALLOC_PERTURB_). Without it a buffer broadcast uninitialised (a
// tutorial timing broadcasts of malloc'd memory) held whatever the heap
// held, which differs between the original and the patched program, and
// the effect check reported a difference no patch caused. Empty when the
// user's environment sets MALLOC_PERTURB_ already.
std::vector<std::pair<std::string, std::string>> sameHeapFill();

} // namespace cz::verify
