/*
 * trial.c: the decision table's own algorithm on trial against the MPI
 * library's collective, for large messages, while the program runs.
 *
 * Why: the table was measured in launches where the machine's two cores sat
 * near each other. On the virtual machines this project is measured on the
 * host sometimes places the two vCPUs far apart for tens of seconds (a
 * cache line's round trip 310-340 ns instead of 63-90), and then every
 * shared-memory handover (one rank writes a block into the window, another
 * copies it out) costs 3.7x: the shm allgather, alltoall and broadcast of
 * 32-256 KiB read 3-5.7x the library's time in those launches and 0.5-0.9x
 * in the others (bench/README.md, "Cores far apart"), while Open MPI's own
 * single-copy path hardly notices. No fixed table can be right in both
 * placements; a measurement at run time can, and it also covers whatever
 * else makes the table wrong on the user's machine.
 *
 * Per communicator, collective and size class (trial.h), every rank:
 *  1. runs the current verdict (at first the table's own algorithm);
 *  2. after `period` calls, runs a trial of CZI_TRIAL_STEPS calls: own,
 *     library, library, own, own, library (so neither side always follows
 *     the other), each after a barrier on the private communicator and
 *     timed alone with the monotonic clock, and keeps each side's fastest.
 *     The barrier keeps either side from being charged for the ranks'
 *     arrival skew or for the other's backlog (the shm broadcast's root
 *     runs up to 64 segments ahead of its readers: a library call right
 *     after it would wait for them). The fastest, because other jobs only
 *     ever add time: at load 40 on the 2-core VM single 256 KiB calls took
 *     25 us to 475 ms, and medians of three picked the side that had been
 *     descheduled about half the time; the far placement slows every
 *     handover, so it shows in the fastest call too (256 KiB: 133 us
 *     against 36 near);
 *  3. after the trial's last call, one PMPI_Allreduce (MPI_MAX) of the two
 *     times over the private communicator: every rank gets the same two
 *     numbers, the slowest rank's, so every rank takes the same verdict (a
 *     split verdict would pair a shared-memory algorithm with the library's
 *     collective and hang). The faster side (own on a tie) takes the cell
 *     only if a second trial CZI_TRIAL_PERIOD_MIN calls later agrees, so
 *     one disturbed trial does not move it;
 *  4. a verdict that stands doubles the period (up to CZI_TRIAL_PERIOD_MAX),
 *     a changed one sets it back to CZI_TRIAL_PERIOD_MIN.
 *
 * Cost, per period of n calls: the 3 trial calls of the losing side (each at
 * most the ratio between the two, so ~8 extra library-call times a period
 * when own is 4x slower), 6 barriers and one allreduce of 16 bytes (1-3 us
 * each at P = 2, 10-50 us oversubscribed); n grows to 1024 while the verdict stands, so in
 * steady state ~0.5 % of the calls' time. Calls not on trial pay one
 * pointer test on the fast path. A change of placement is noticed within n
 * calls (1024 calls of 256 KiB: 30-130 ms; the states last tens of seconds).
 * Only cells of at least 32 KiB are on trial: below, the trial's cost is a
 * larger share of the call and the own algorithms win in either placement.
 *
 * While the placement probe (placement.c) says the cores are far apart, no
 * trial runs and the placement's choice does; when they come near again,
 * each cell starts over from the table's choice.
 *
 * Environment: COLLECTIVIZE_TRIALS=0 turns trials off (the table's choice
 * always runs). COLLECTIVIZE_TRIAL_OWN_SCALE=F (tests): this process counts
 * its own algorithm's calls as F times their measured time, as if the cores
 * were far apart (F > 1) or the library were slower (F < 1).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "comm_state.h"
#include "placement.h"
#include "registry.h"
#include "trial.h"

enum {
  CZI_TRIAL_STEPS = 6,
  CZI_TRIAL_PERIOD_MIN = 16,
  CZI_TRIAL_PERIOD_MAX = 1024,
};

int czi_trials_on = 1;
static double own_scale = 1.0;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void read_env(void) {
  const char *on = getenv("COLLECTIVIZE_TRIALS");
  if (on && *on) {
    char *end;
    long v = strtol(on, &end, 10);
    if (*end || (v != 0 && v != 1))
      czi_warn("COLLECTIVIZE_TRIALS='%s' is neither 0 nor 1; trials stay on", on);
    else
      czi_trials_on = (int)v;
  }
  const char *scale = getenv("COLLECTIVIZE_TRIAL_OWN_SCALE");
  if (scale && *scale) {
    char *end;
    double v = strtod(scale, &end);
    if (*end || !(v > 0) || !isfinite(v))
      czi_warn("COLLECTIVIZE_TRIAL_OWN_SCALE='%s' is not a positive number; "
               "ignored", scale);
    else
      own_scale = v;
  }
}

void czi_trial_set_own_scale(double scale) {
  pthread_once(&env_once, read_env);
  own_scale = scale;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int size_class(long long bytes) {
  if (bytes < (1LL << CZI_TRIAL_MIN_LOG2)) return -1;
  int c = 63 - __builtin_clzll((unsigned long long)bytes) - CZI_TRIAL_MIN_LOG2;
  return c < CZI_TRIAL_CLASSES ? c : CZI_TRIAL_CLASSES - 1;
}

static int on_trial_collective(cz_collective coll) {
  return coll == CZ_COLL_ALLTOALL || coll == CZ_COLL_ALLGATHER ||
         coll == CZ_COLL_BCAST || coll == CZ_COLL_ALLREDUCE;
}

czi_trial *czi_trial_for(czi_comm_state *s, cz_collective coll,
                         const czi_algorithm *alg, const czi_params *params,
                         long long bytes) {
  pthread_once(&env_once, read_env);
  const int c = size_class(bytes);
  /* With trials off the record still serves the placement (placement.c),
   * unless that is off too. */
  const int placed = czi_placement_mode_now() != CZI_PLACEMENT_NEAR;
  if (!(czi_trials_on || placed) || !params->from_table || s->size < 2 || c < 0 ||
      !on_trial_collective(coll))
    return NULL;
  const czi_algorithm *mpi = czi_algorithm_find(coll, "mpi", 3);
  if (!mpi || alg == mpi || czi_algorithm_for_procs(alg, s->size) != alg)
    return NULL;
  czi_trial *t = &s->trials[coll][c];
  if (t->own != alg) { /* first use, or the table changed: start over */
    const long long smallest = 1LL << (CZI_TRIAL_MIN_LOG2 + c);
    *t = (czi_trial){.own = alg, .mpi = mpi, .calls_left = CZI_TRIAL_PERIOD_MIN,
                     .period = CZI_TRIAL_PERIOD_MIN, .place = &s->place,
                     .bytes = smallest, .place_changes = s->place.changes,
                     .far_to_mpi = (unsigned char)czi_placement_far_to_mpi(
                         coll, alg->name, smallest, s->size)};
  }
  return t;
}

const czi_algorithm *czi_trial_pick(czi_trial *t, MPI_Comm priv,
                                    czi_trial_call *c) {
  if (t->step == 0) {
    /* Far apart: the placement's choice, no trials; near again: the trial
     * starts over from the table's choice. */
    if (czi_placement_far(t->place, priv, t->bytes, &c->barrier_rc)) {
      c->timed = c->barrier_rc != MPI_SUCCESS; /* czi_trial_end reports it */
      c->which = 2;
      return t->far_to_mpi ? t->mpi : t->own;
    }
    if (t->place_changes != t->place->changes) {
      t->place_changes = t->place->changes;
      t->use_mpi = t->doubted = 0;
      t->period = t->calls_left = CZI_TRIAL_PERIOD_MIN;
    }
    if (!czi_trials_on) return t->own;
    if (t->calls_left > 0) {
      t->calls_left--;
      return t->use_mpi ? t->mpi : t->own;
    }
    t->step = 1;
  }
  /* own, library, library, own, own, library */
  c->which = t->step == 2 || t->step == 3 || t->step == 6;
  c->timed = 1;
  c->barrier_rc = PMPI_Barrier(priv);
  c->t0 = now_s();
  return c->which ? t->mpi : t->own;
}

static double fastest3(const double *v) {
  const double ab = v[0] < v[1] ? v[0] : v[1];
  return ab < v[2] ? ab : v[2];
}

/* Step 3 and 4: the slowest rank's fastest calls decide, alike on every
 * rank. */
static int decide(czi_trial *t, MPI_Comm priv) {
  double mine[2], worst[2];
  for (int k = 0; k < 2; k++) mine[k] = fastest3(t->times[k]);
  int rc = PMPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, priv);
  if (rc != MPI_SUCCESS) return czi_mpi_fail(rc, __func__, "PMPI_Allreduce");
  const unsigned char use_mpi = worst[0] > worst[1];
  t->trials += t->trials < 255;
  if (use_mpi == t->use_mpi) {
    t->doubted = 0;
    t->period = t->period < CZI_TRIAL_PERIOD_MAX ? 2 * t->period
                                                 : CZI_TRIAL_PERIOD_MAX;
  } else if (!t->doubted) { /* ask again soon */
    t->doubted = 1;
    t->calls_left = CZI_TRIAL_PERIOD_MIN;
    return MPI_SUCCESS;
  } else {
    t->doubted = 0;
    t->use_mpi = use_mpi;
    t->switches += t->switches < 255;
    t->period = CZI_TRIAL_PERIOD_MIN;
  }
  t->calls_left = t->period;
  return MPI_SUCCESS;
}

int czi_trial_record(czi_trial *t, MPI_Comm priv, const czi_trial_call *c,
                     int rc) {
  if (c->which == 2) /* a failed placement probe, not a trial's call */
    return rc == MPI_SUCCESS ? c->barrier_rc : rc;
  double dt = now_s() - c->t0;
  if (rc == MPI_SUCCESS && c->barrier_rc != MPI_SUCCESS)
    rc = czi_mpi_fail(c->barrier_rc, __func__, "PMPI_Barrier");
  if (c->which == 0) dt *= own_scale;
  /* Steps 1, 4, 5 are own's calls 0, 1, 2; steps 2, 3, 6 the library's. */
  static const unsigned char slot[CZI_TRIAL_STEPS + 1] = {0, 0, 0, 1, 1, 2, 2};
  t->times[c->which][slot[t->step]] = dt;
  if (t->step++ < CZI_TRIAL_STEPS) return rc;
  t->step = 0;
  const int agreed = decide(t, priv);
  return rc != MPI_SUCCESS ? rc : agreed;
}

int czi_trial_verdict(MPI_Comm comm, cz_collective coll, long long bytes,
                      int *trials) {
  czi_comm_state *s;
  const int c = size_class(bytes);
  if (c < 0 || czi_comm_state_get(__func__, comm, &s) != MPI_SUCCESS) return -1;
  const czi_trial *t = &s->trials[coll][c];
  if (!t->own) return -1;
  if (trials) *trials = t->trials;
  return t->use_mpi;
}
