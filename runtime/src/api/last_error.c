/* last_error.c: cz_last_error(), the public face of the error path. The
 * path itself (common/error.c) is shared with the tracer, where it is
 * hidden, so the exported function lives here, in libcollectivize only. */
#include "collectivize.h"
#include "cz_internal.h"

const char *cz_last_error(void) { return czi_last_error(); }
