// cli.h: the `collectivize bench` and `collectivize tune` verbs.
#pragma once

namespace cz::bench {
int benchVerb(int argc, char **argv);
int tuneVerb(int argc, char **argv);
} // namespace cz::bench
