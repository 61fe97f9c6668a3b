/* version.c: the version the header announces, for run-time checks. */
#include "collectivize.h"

#define CZ_STR2(x) #x
#define CZ_STR(x) CZ_STR2(x)

const char *cz_version(void) {
  return CZ_STR(CZ_VERSION_MAJOR) "." CZ_STR(CZ_VERSION_MINOR) "." CZ_STR(
      CZ_VERSION_PATCH);
}
