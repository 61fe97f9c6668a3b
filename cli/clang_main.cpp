// clang_main.cpp: `collectivize-clang <verb> ...`, the verbs that need
// Clang and LLVM (instrument, rewrite). `collectivize` runs this program
// for them, so that its other verbs (detect above all) start without
// loading LLVM's libraries (about 10 ms and 60 MB of resident memory).
#include <cstdio>
#include <cstring>

#ifdef CZ_HAVE_INSTRUMENT
#include "collectivize/instrument/Verb.h"
#endif
#ifdef CZ_HAVE_REWRITE
#include "collectivize/rewrite/Rewrite.h"
#endif

int main(int argc, char **argv) {
  const char *verb = argc > 1 ? argv[1] : "";
#ifdef CZ_HAVE_INSTRUMENT
  if (std::strcmp(verb, "instrument") == 0) return cz::instrument::instrumentVerb(argc - 2, argv + 2);
#endif
#ifdef CZ_HAVE_REWRITE
  if (std::strcmp(verb, "rewrite") == 0) return cz::rewrite::rewriteVerb(argc - 2, argv + 2);
#endif
  std::fprintf(stderr, "collectivize-clang: unknown verb '%s' (run by `collectivize`)\n", verb);
  return 2;
}
