/* high.h: built on low/. */
#include "low.h"
