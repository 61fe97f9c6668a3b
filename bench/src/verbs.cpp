// PLACEHOLDER: to be written.
#include <cstdio>
#include "bench/cli.h"
namespace cz::bench {
int benchVerb(int, char **) { std::fprintf(stderr, "not written yet\n"); return 1; }
int tuneVerb(int, char **) { std::fprintf(stderr, "not written yet\n"); return 1; }
}
