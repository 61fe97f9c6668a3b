// Verb.h: `collectivize instrument` (argc/argv after the verb; returns the
// exit code: 0 ok, 1 failure, 2 usage).
#pragma once

namespace cz::instrument {
int instrumentVerb(int argc, char **argv);
} // namespace cz::instrument
