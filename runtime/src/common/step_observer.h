/* step_observer.h: the hook behind collectivize_steps.h, for algorithm files. */
#ifndef CZ_STEP_OBSERVER_H
#define CZ_STEP_OBSERVER_H

#include "collectivize_steps.h"

extern cz_step_observer czi_step_observer_fn;
extern void *czi_step_observer_arg;

/* After a step: report `bytes` of `buf` as the rank's state, if watched. */
#define CZI_STEP(algorithm, step, phase, buf, bytes)                        \
  do {                                                                     \
    if (czi_step_observer_fn)                                              \
      czi_step_observer_fn(algorithm, step, phase, buf, bytes,             \
                           czi_step_observer_arg);                         \
  } while (0)

#endif
