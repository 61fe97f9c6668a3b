/* wrappers_init.c: tracing starts after MPI_Init / MPI_Init_thread and ends
 * before MPI_Finalize (after recording the receives the program left
 * uncompleted, requests.c). MPI_Abort only stores the late receive: every other
 * event is in the rank's ring or log file as soon as it is recorded. */
#include <stdio.h>
#include <stdlib.h>

#include "tracer.h"

CZT_EXPORT int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    czt_start(provided);
  }
  return rc;
}

CZT_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required,
                               int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) czt_start(*provided);
  return rc;
}

CZT_EXPORT int MPI_Finalize(void) {
  int leftovers = czt_req_complete_leftover_receives();
  if (leftovers && !getenv("COLLECTIVIZE_QUIET"))
    fprintf(stderr,
            "collectivize: rank %d: %d receive%s the program started and never completed "
            "(no MPI_Wait/MPI_Test) completed at MPI_Finalize and recorded there\n",
            czt.rank, leftovers, leftovers == 1 ? "" : "s");
  czt_finish();
  return PMPI_Finalize();
}

CZT_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (czt_late_pending) czt_store_late();
  return PMPI_Abort(comm, errorcode);
}
