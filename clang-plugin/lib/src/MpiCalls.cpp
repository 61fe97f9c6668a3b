// MpiCalls.cpp: the table of MPI functions that are sites. Keep `traced` in
// sync with the runtime/trace wrappers that call CZT_SITE().
#include "collectivize/clang/MpiCalls.h"

namespace cz::clangtools {
namespace {

constexpr CallKind P2P = CallKind::PointToPoint;
constexpr CallKind Done = CallKind::Completion;
constexpr CallKind Coll = CallKind::Collective;
constexpr CallKind Comm = CallKind::Communicator;

const MpiFunction kFunctions[] = {
    // Point to point: the tracer records each with its site.
    {"MPI_Send", P2P, true}, {"MPI_Bsend", P2P, true}, {"MPI_Ssend", P2P, true},
    {"MPI_Rsend", P2P, true}, {"MPI_Isend", P2P, true}, {"MPI_Ibsend", P2P, true},
    {"MPI_Issend", P2P, true}, {"MPI_Irsend", P2P, true}, {"MPI_Recv", P2P, true},
    {"MPI_Irecv", P2P, true}, {"MPI_Sendrecv", P2P, true},
    {"MPI_Sendrecv_replace", P2P, true}, {"MPI_Send_init", P2P, true},
    {"MPI_Bsend_init", P2P, true}, {"MPI_Ssend_init", P2P, true},
    {"MPI_Rsend_init", P2P, true}, {"MPI_Recv_init", P2P, true},
    {"MPI_Probe", P2P, false}, {"MPI_Iprobe", P2P, false},
    // Completion: the tracer records completion of the request, whose site
    // is the call that created it.
    {"MPI_Start", Done, false}, {"MPI_Startall", Done, false},
    {"MPI_Wait", Done, false}, {"MPI_Waitall", Done, false},
    {"MPI_Waitany", Done, false}, {"MPI_Waitsome", Done, false},
    {"MPI_Test", Done, false}, {"MPI_Testall", Done, false},
    {"MPI_Testany", Done, false}, {"MPI_Testsome", Done, false},
    {"MPI_Cancel", Done, false},
    // Collectives the tracer wraps (COLL in wrappers_collectives.c).
    {"MPI_Barrier", Coll, true}, {"MPI_Bcast", Coll, true}, {"MPI_Reduce", Coll, true},
    {"MPI_Allreduce", Coll, true}, {"MPI_Scan", Coll, true}, {"MPI_Exscan", Coll, true},
    {"MPI_Gather", Coll, true}, {"MPI_Gatherv", Coll, true}, {"MPI_Scatter", Coll, true},
    {"MPI_Scatterv", Coll, true}, {"MPI_Allgather", Coll, true},
    {"MPI_Allgatherv", Coll, true}, {"MPI_Alltoall", Coll, true},
    {"MPI_Alltoallv", Coll, true}, {"MPI_Alltoallw", Coll, true},
    {"MPI_Reduce_scatter", Coll, true}, {"MPI_Reduce_scatter_block", Coll, true},
    // Nonblocking collectives: sites, not traced with an id.
    {"MPI_Ibarrier", Coll, false}, {"MPI_Ibcast", Coll, false},
    {"MPI_Ireduce", Coll, false}, {"MPI_Iallreduce", Coll, false},
    {"MPI_Igather", Coll, false}, {"MPI_Iscatter", Coll, false},
    {"MPI_Iallgather", Coll, false}, {"MPI_Ialltoall", Coll, false},
    {"MPI_Ialltoallv", Coll, false},
    // Communicator creation and free: the tracer records those it wraps
    // (wrappers_comm.c) with their site, by which reports name the
    // communicators; the others are sites only.
    {"MPI_Comm_dup", Comm, true}, {"MPI_Comm_dup_with_info", Comm, true},
    {"MPI_Comm_idup", Comm, false}, {"MPI_Comm_split", Comm, true},
    {"MPI_Comm_split_type", Comm, true}, {"MPI_Comm_create", Comm, true},
    {"MPI_Comm_create_group", Comm, true}, {"MPI_Cart_create", Comm, true},
    {"MPI_Comm_free", Comm, true},
    {"MPI_Graph_create", Comm, false}, {"MPI_Dist_graph_create", Comm, false},
    {"MPI_Dist_graph_create_adjacent", Comm, false},
    {"MPI_Intercomm_create", Comm, false}, {"MPI_Intercomm_merge", Comm, false},
};

} // namespace

const MpiFunction *classifyMpiCall(llvm::StringRef name) {
  if (!name.startswith("MPI_")) return nullptr;
  for (const MpiFunction &f : kFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

const char *callKindName(CallKind kind) {
  switch (kind) {
  case CallKind::PointToPoint: return "p2p";
  case CallKind::Completion: return "completion";
  case CallKind::Collective: return "collective";
  case CallKind::Communicator: return "comm";
  }
  return "?";
}

} // namespace cz::clangtools
