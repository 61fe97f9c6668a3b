#include "high.h"
#include <stdio.h>
