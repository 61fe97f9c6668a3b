// verbs.h: the verbs of `collectivize`. Each takes the arguments after the
// verb and returns the process exit code (0 ok, 1 failure, 2 usage error).
#pragma once

#include <string>

namespace cz::cli {
int algorithmsVerb(int argc, char **argv);
int tableVerb(int argc, char **argv);
int traceVerb(int argc, char **argv);
int runVerb(int argc, char **argv);
int detectVerb(int argc, char **argv);
int verifyVerb(int argc, char **argv);
// A trace's ranks, events and incomplete ranks on stdout (withDirectory:
// first a "trace: DIR" line); 0, or 1 when it cannot be read (said on
// stderr as "who: ...").
int printSummary(const std::string &dir, const char *who, bool withDirectory);
// `collectivize trace repair`: 0, or 1 when the trace cannot be repaired.
int repairTrace(const std::string &dir, const char *who);
int reportVerb(int argc, char **argv);
} // namespace cz::cli
