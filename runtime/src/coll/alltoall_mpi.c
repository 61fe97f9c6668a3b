/*
 * alltoall_mpi.c: the MPI library's own MPI_Alltoall, so the decision table
 * can always fall back to it (and benchmarks compare against it).
 * Cost: whatever the library's fixed rules pick (Open MPI 4.1 coll/tuned:
 * Bruck, linear, pairwise or linear_sync by size and P).
 *
 * One workaround: Open MPI before 4.1.5 (Debian 12 ships 4.1.4) returns
 * wrong data from its Bruck alltoall when the send and receive types have
 * different type maps (open-mpi/ompi#10488; seen here at P=16 sending one
 * strided element per block and receiving two MPI_INTs). Calls whose send
 * and receive descriptions differ therefore travel as packed bytes, which
 * costs one pack and one unpack (2·P·m bytes of local copies).
 */
#include "cz_internal.h"

static int same_description(int sendcount, MPI_Datatype sendtype,
                            int recvcount, MPI_Datatype recvtype) {
  return sendtype == recvtype && sendcount == recvcount;
}


int czi_alltoall_mpi(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS, p;
  czi_type st, rt;
  char *packed = NULL;
  (void)params;

  if (sendbuf == MPI_IN_PLACE ||
      same_description(sendcount, sendtype, recvcount, recvtype)) {
    rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, comm);
    return CZI_LIB_RESULT(rc, alltoall, PMPI_Alltoall);
  }

  CZI_MPI(PMPI_Comm_size(comm, &p));
  CZI_TRY(czi_type_get(sendtype, &st));
  CZI_TRY(czi_type_get(recvtype, &rt));
  const size_t m = (size_t)sendcount * st.size;
  if (m == 0) return MPI_SUCCESS;
  if (m > (size_t)INT_MAX)
    return czi_fail(MPI_ERR_COUNT, __func__,
                    "a block of %zu bytes exceeds an int count", m);
  CZI_SCRATCH(packed, CZI_SCRATCH_ALGORITHM, 2 * (size_t)p * m);
  char *out = packed, *in = packed + (size_t)p * m;
  for (int i = 0; i < p; ++i)
    CZI_TRY(czi_pack(czi_block(sendbuf, i, sendcount, &st), sendcount, &st,
                     out + (size_t)i * m));
  CZI_MPI(PMPI_Alltoall(out, (int)m, MPI_BYTE, in, (int)m, MPI_BYTE, comm));
  for (int i = 0; i < p; ++i)
    CZI_TRY(czi_unpack(in + (size_t)i * m,
                       czi_block(recvbuf, i, recvcount, &rt), recvcount, &rt));
fn_fail:
  return rc;
}
