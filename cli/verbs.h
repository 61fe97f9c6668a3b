// verbs.h: the verbs of `collectivize`. Each takes the arguments after the
// verb and returns the process exit code (0 ok, 1 failure, 2 usage error).
#pragma once

namespace cz::cli {
int algorithmsVerb(int argc, char **argv);
int tableVerb(int argc, char **argv);
int traceVerb(int argc, char **argv);
int runVerb(int argc, char **argv);
int detectVerb(int argc, char **argv);
int reportVerb(int argc, char **argv);
} // namespace cz::cli
