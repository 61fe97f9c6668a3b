/* low.h: a lower layer that wrongly reaches up. */
#include "high.h"
