// environment.h: every COLLECTIVIZE_* environment variable the project reads,
// for `collectivize --list-env` and `collectivize help env`. The table in
// environment.cpp is the one list; tests/lit/cli/env-drift.test fails when
// the sources read a variable it does not name.
#pragma once

#include <cstdio>

namespace cz::cli {
// NAME, READ BY and DEFAULT in aligned columns, the meaning indented below.
void printEnvironment(FILE *out);
// `collectivize help env`: an introduction, then the listing.
void printEnvironmentHelp(FILE *out);
} // namespace cz::cli
