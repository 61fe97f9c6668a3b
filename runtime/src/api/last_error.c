/* last_error.c: cz_last_error(), the public face of the error path. The
 * path itself (common/error.c) is shared with the tracer, where it is
 * hidden, so the exported function lives here, in libcollectivize only. */
#include "collectivize.h"
#include "cz_internal.h"

/* A library call handed over by a fast path since the last message
 * (lib_call set: czi_fail clears it, and so does the error handler that
 * describes such a call's failure) succeeded: the message is stale. The
 * fast paths leave the clearing to this function rather than pay a test
 * for a pending message on every call. */
const char *cz_last_error(void) {
  return czi_flags.lib_call ? "" : czi_last_error();
}
