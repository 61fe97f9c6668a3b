/* step_observer.c: the one process-wide step observer (collectivize_steps.h). */
#include "step_observer.h"

cz_step_observer czi_step_observer_fn = NULL;
void *czi_step_observer_arg = NULL;

void cz_set_step_observer(cz_step_observer fn, void *arg) {
  czi_step_observer_arg = arg;
  czi_step_observer_fn = fn;
}
