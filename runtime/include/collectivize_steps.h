/*
 * collectivize_steps.h: watch the runtime's algorithms move data, one
 * communication step at a time. For teaching and for the HTML report's
 * algorithm explorer, whose test checks its pictures against what the real
 * algorithms do (report/tools/step_export.c). Not for production use: one
 * observer per process, set before the collective runs, not thread-safe.
 *
 * Observed algorithms call the observer after each step with the buffer that
 * holds the rank's blocks at that point: Bruck alltoall its rotated working
 * buffer (step 0 "rotate", 1..rounds "round", last "inverse rotation" with
 * the receive buffer), the others their receive buffer. Steps are numbered
 * alike on every rank, so step s of all ranks is one global picture; a rank
 * that has nothing to do in a step may not report it (keep its last state).
 * With no observer set, an algorithm pays one pointer test per step.
 */
#ifndef COLLECTIVIZE_STEPS_H
#define COLLECTIVIZE_STEPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*cz_step_observer)(const char *algorithm, int step,
                                 const char *phase, const void *buffer,
                                 size_t bytes, void *arg);

/* Installs fn (NULL removes it); arg is handed back on every call. */
void cz_set_step_observer(cz_step_observer fn, void *arg);

#ifdef __cplusplus
}
#endif

#endif
