/* checks.c: argument validation for the public entry points. The aim is the
 * message a user needs: which argument, which value, what is allowed. */
#include <string.h>

#include "api.h"

int czi_check_comm(const char *fn, MPI_Comm comm, czi_call *call) {
  czi_comm_state *state = czi_comm_cached(comm);
  if (!state) {
    int rc = czi_comm_state_get(fn, comm, &state);
    if (rc != MPI_SUCCESS) return rc;
  }
  call->state = state;
  call->size = state->size;
  call->rank = state->rank;
  call->priv = state->priv;
  return MPI_SUCCESS;
}

int czi_check_count(const char *fn, const char *what, int count) {
  if (count < 0)
    return czi_fail(MPI_ERR_COUNT, fn, "%s is negative (%d)", what, count);
  return MPI_SUCCESS;
}

int czi_check_type(const char *fn, const char *what, MPI_Datatype type,
                   czi_type *info) {
  if (type == MPI_DATATYPE_NULL)
    return czi_fail(MPI_ERR_TYPE, fn, "%s is MPI_DATATYPE_NULL", what);
  if (czi_type_get(type, info) != MPI_SUCCESS)
    return czi_fail(MPI_ERR_TYPE, fn, "%s is not a valid datatype", what);
  return MPI_SUCCESS;
}

int czi_check_buffer(const char *fn, const char *what, const void *buf,
                     int count, const czi_type *t) {
  /* NULL is MPI_BOTTOM in Open MPI: legal with absolute-address datatypes,
   * whose data does not start at offset 0. */
  if (!buf && count > 0 && t->size > 0 && t->true_lb == 0)
    return czi_fail(MPI_ERR_BUFFER, fn, "%s is NULL but %d elements are to move",
                    what, count);
  return MPI_SUCCESS;
}

int czi_check_block_call(const char *fn, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, const void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         czi_call *call) {
  int rc = MPI_SUCCESS;
  CZI_TRY(czi_check_comm(fn, comm, call));
  CZI_TRY(czi_check_count(fn, "recvcount", recvcount));
  CZI_TRY(czi_check_type(fn, "recvtype", recvtype, &call->rt));
  CZI_TRY(czi_check_buffer(fn, "recvbuf", recvbuf, recvcount, &call->rt));
  if (sendbuf == MPI_IN_PLACE) {
    call->st = call->rt;
    return MPI_SUCCESS;
  }
  CZI_TRY(czi_check_count(fn, "sendcount", sendcount));
  CZI_TRY(czi_check_type(fn, "sendtype", sendtype, &call->st));
  CZI_TRY(czi_check_buffer(fn, "sendbuf", sendbuf, sendcount, &call->st));
  if ((size_t)sendcount * call->st.size != (size_t)recvcount * call->rt.size)
    return czi_fail(MPI_ERR_TRUNCATE, fn,
                    "a send block is %zu bytes (sendcount %d) but a receive "
                    "block is %zu bytes (recvcount %d): type signatures must "
                    "match",
                    (size_t)sendcount * call->st.size, sendcount,
                    (size_t)recvcount * call->rt.size, recvcount);
fn_fail:
  return rc;
}

const czi_algorithm *czi_algorithm_named(cz_collective coll, const char *name) {
  return czi_algorithm_find(coll, name, strlen(name));
}

int czi_algorithm_by_name(const char *fn, cz_collective coll, const char *text,
                          const czi_algorithm **alg, int *param) {
  char err[512];
  czi_clear_error();
  if (!text) return czi_fail(MPI_ERR_ARG, fn, "algorithm name is NULL");
  if (czi_algorithm_parse(coll, text, alg, param, err, sizeof err))
    return czi_fail(MPI_ERR_ARG, fn, "%s", err);
  return MPI_SUCCESS;
}
