// FortranSuggestion.cpp: the Fortran call suggested for a match whose sites
// are in a Fortran file (see FortranSuggestion.h). The source is read as
// text: statements (free form: `&` continuations; fixed form: column 6),
// the `call MPI_...(...)` on a site's line, its arguments split at
// top-level commas, and the collective's arguments picked by position.
#include "FortranSuggestion.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cz::rewrite {
namespace {

std::string lower(llvm::StringRef s) { return s.lower(); }

// The arguments a role of a point-to-point call gives: buffer, count,
// datatype, peer, communicator, and the ierror argument when written.
struct Side {
  std::string buf, count, type, peer, comm, ierr;
  unsigned line = 0; // the call's first line
  bool ok = false;
};

Side sideOf(const FortranCall &c, bool send) {
  std::string n = lower(c.name);
  const std::vector<std::string> &a = c.args;
  Side s;
  auto take = [&](size_t b, size_t cnt, size_t ty, size_t peer, size_t comm, size_t nargs) {
    if (a.size() < nargs) return;
    s = {a[b], a[cnt], a[ty], a[peer], a[comm], a.size() > nargs ? a.back() : "", c.firstLine, true};
  };
  if (n == "mpi_sendrecv") {
    if (send) take(0, 1, 2, 3, 10, 12);
    else take(5, 6, 7, 8, 10, 12);
  } else if (n == "mpi_sendrecv_replace") {
    take(0, 1, 2, send ? 3 : 5, 7, 9);
  } else if (n == "mpi_recv" || n == "mpi_irecv" || n == "mpi_recv_init") {
    if (!send) take(0, 1, 2, 3, 5, 7);
  } else if (n == "mpi_mrecv" || n == "mpi_imrecv") {
    // The message handle hides peer and communicator.
  } else if (n.size() > 4 && n.find("send") != std::string::npos) {
    bool request = n[4] == 'i' || n.find("_init") != std::string::npos;
    if (send) take(0, 1, 2, 3, 5, request ? 7 : 6);
  }
  return s;
}

// `all(q * block + 1)` -> `all`: the array whose blocks the loop walks.
std::string arrayOf(const std::string &buf) {
  size_t open = buf.find('(');
  if (open == std::string::npos || buf.back() != ')') return buf;
  std::vector<std::string> ignored;
  if (!splitFortranArguments(buf, open, ignored)) return buf;
  return llvm::StringRef(buf).take_front(open).trim().str();
}

// A root named the same way on every rank: a variable, a named constant or
// a literal (not `me - mask`, not MPI_ANY_SOURCE).
bool rankIndependent(const std::string &e) {
  if (e.empty() || lower(e) == "mpi_any_source") return false;
  return std::all_of(e.begin(), e.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '%'; });
}

// What one of a v-form's arrays must hold, for the rationale: `what` per
// rank q, and `handMade`: how the hand-made call gives it for its peer.
std::string arrayNote(const std::string &name, const std::string &holder, const std::string &what,
                      const std::string &handMade) {
  return "`" + name + "`: an integer array the program must supply on " + holder + ", one element per "
         "rank of the communicator (element 1 for rank 0): element q + 1 is " + what + ". " + handMade +
         "; no value the trace saw is used (those hold for the traced run only)";
}

// A v-form's call (gatherv, scatterv, alltoallv, allgatherv): buffers, datatypes, root
// and communicator from the sites' calls, and in place of its counts and
// displacements placeholders naming the arrays the program must supply,
// each explained in `notes`; `supply` gets the reason's words for them.
std::string varyingCall(const std::string &k, const Side &send, const Side &recv, const std::string &root,
                        const std::string &comm, std::vector<std::string> &notes, std::string &supply) {
  auto at = [](const Side &s) { return " (line " + std::to_string(s.line) + ")"; };
  auto list = [](std::initializer_list<std::string> a) {
    std::string s;
    for (const std::string &x : a) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::string sendArray = arrayOf(send.buf), recvArray = arrayOf(recv.buf);
  auto counts = [&](const char *name, const char *holder, const Side &s, bool sends) {
    notes.push_back(arrayNote(name, holder,
                              std::string("the number of elements rank q ") + (sends ? "receives from" : "sends to") +
                                  " this rank, its own block included",
                              std::string("The hand-made ") + (sends ? "send to" : "receive from") + " rank `" +
                                  s.peer + "` moves `" + s.count + "` elements" + at(s)));
  };
  auto displs = [&](const char *name, const char *holder, const Side &s, const std::string &array, bool sends) {
    notes.push_back(arrayNote(name, holder,
                              "where rank q's block starts in `" + array + "`, counted in elements of " +
                                  s.type + " from its first element (0 for the first block)",
                              std::string("The hand-made ") + (sends ? "send to" : "receive from") + " rank `" +
                                  s.peer + "` " + (sends ? "reads" : "writes") + " `" + s.buf + "`" + at(s)));
  };
  if (k == "gatherv") {
    counts("<recvcounts>", "the root", recv, false);
    displs("<displs>", "the root", recv, recvArray, false);
    notes.push_back("MPI_Gatherv also stores the root's own block, at its displacement in `" + recvArray +
                    "`: drop the root's copy of it");
    supply = "; the program must supply `<recvcounts>` and `<displs>` on the root (per rank, the count "
             "of its block and where it starts in `" + recvArray + "`: the rationale says what each holds)";
    return "call MPI_Gatherv(" + list({send.buf, send.count, send.type, recvArray, "<recvcounts>", "<displs>",
                                       recv.type, root, comm});
  }
  if (k == "allgatherv") {
    counts("<recvcounts>", "every rank", recv, false);
    displs("<displs>", "every rank", recv, recvArray, false);
    supply = "; the program must supply `<recvcounts>` and `<displs>` on every rank (per rank, the "
             "count of its block and where it starts in `" + recvArray + "`: the rationale says what each holds)";
    // A ring forwards from the array it receives into: each rank's own
    // block already sits there, at its displacement.
    if (lower(sendArray) == lower(recvArray)) {
      notes.push_back("in place: each rank's own block must already sit at its displacement in `" + recvArray +
                      "`");
      return "call MPI_Allgatherv(" + list({"MPI_IN_PLACE", "0", "MPI_DATATYPE_NULL", recvArray, "<recvcounts>",
                                            "<displs>", recv.type, comm});
    }
    notes.push_back("MPI_Allgatherv also stores each rank's own block, at its displacement in `" + recvArray +
                    "`: drop the rank's copy of it");
    return "call MPI_Allgatherv(" + list({send.buf, send.count, send.type, recvArray, "<recvcounts>", "<displs>",
                                          recv.type, comm});
  }
  if (k == "scatterv") {
    counts("<sendcounts>", "the root", send, true);
    displs("<displs>", "the root", send, sendArray, true);
    notes.push_back("MPI_Scatterv also delivers the root's own block into `" + recv.buf +
                    "`: drop the root's copy of it");
    supply = "; the program must supply `<sendcounts>` and `<displs>` on the root (per rank, the count "
             "of its block and where it starts in `" + sendArray + "`: the rationale says what each holds)";
    return "call MPI_Scatterv(" + list({sendArray, "<sendcounts>", "<displs>", send.type, recv.buf, recv.count,
                                        recv.type, root, comm});
  }
  counts("<sendcounts>", "every rank", send, true);
  displs("<sdispls>", "every rank", send, sendArray, true);
  counts("<recvcounts>", "every rank", recv, false);
  displs("<rdispls>", "every rank", recv, recvArray, false);
  notes.push_back("MPI_Alltoallv also moves each rank's block to itself: drop the rank's own copy of it");
  supply = "; the program must supply `<sendcounts>`, `<sdispls>`, `<recvcounts>` and `<rdispls>` on "
           "every rank (per peer, the count of the block and where it starts in `" + sendArray + "` and `" +
           recvArray + "`: the rationale says what each holds)";
  return "call MPI_Alltoallv(" + list({sendArray, "<sendcounts>", "<sdispls>", send.type, recvArray, "<recvcounts>",
                                      "<rdispls>", recv.type, comm});
}

} // namespace

void suggestFortran(const DetectedMatch &m, PatchPlan &p, const std::string &noPatch) {
  p.status = "none";
  bool fixed = isFixedFormSource(p.path);
  std::map<unsigned, FortranCall> statements; // by first line
  Side send, recv;
  for (const MatchSite &s : m.sites) {
    FortranCall c;
    if (!fortranCallAt(p.original, unsigned(s.line), fixed, c)) {
      p.reason = "a Fortran source: " + p.file + ":" + std::to_string(s.line) +
                 " holds no `call MPI_...(...)` statement this reader follows, so there is no "
                 "suggestion either, and no patch (" + noPatch + ")";
      return;
    }
    Side side = sideOf(c, s.send);
    Side &slot = s.send ? send : recv;
    if (!slot.ok) slot = side;
    statements[c.firstLine] = c;
  }
  for (const auto &[line, c] : statements) p.suggestionReplaces.push_back({c.firstLine, c.lastLine, c.text});

  const std::string &k = m.kind;
  bool rooted = k == "bcast" || k == "scatter" || k == "gather" || k == "reduce" || k == "gatherv" ||
                k == "scatterv";
  bool needSend = k != "barrier", needRecv = k != "barrier" && k != "reduce" && k != "allreduce";
  if ((needSend && !send.ok) || (needRecv && !recv.ok)) {
    p.reason = "a Fortran source: the sites' calls do not show the buffers, counts and datatypes "
               "this suggestion needs (matched probes or an unknown routine): no suggestion, and no "
               "patch (" + noPatch + ")";
    return;
  }
  std::string comm = send.ok ? send.comm : recv.comm;
  if (send.ok && recv.ok && lower(send.comm) != lower(recv.comm))
    p.notes.push_back("the sends name the communicator `" + send.comm + "`, the receives `" + recv.comm +
                      "`: the call must name the one both mean");
  std::string ierr = !send.ierr.empty() ? send.ierr : recv.ierr;
  std::string tail = ierr.empty() ? ")" : ", " + ierr + ")";
  std::string root = "<root>";
  if (rooted) {
    std::string e = k == "bcast" || k == "scatter" || k == "scatterv" ? recv.peer : send.peer;
    if (rankIndependent(e)) root = e;
    else
      p.notes.push_back("the root: the peer argument `" + e +
                        "` changes from rank to rank, so the root is left to fill in");
  }
  std::string op = m.op.empty() ? "<op>" : m.op;
  if (m.op.empty() && (k == "reduce" || k == "allreduce" || k == "reduce_scatter"))
    p.notes.push_back("the operation: no observed value proved one, so it is left to fill in");
  auto list = [](std::initializer_list<std::string> a) {
    std::string s;
    for (const std::string &x : a) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::string call, supply;
  if (k == "bcast") {
    call = "call MPI_Bcast(" + list({recv.buf, recv.count, recv.type, root, comm});
    if (lower(send.buf) != lower(recv.buf))
      p.notes.push_back("the root sends from `" + send.buf + "` and the others receive into `" + recv.buf +
                        "`: MPI_Bcast uses one buffer on every rank");
  } else if (k == "scatter") {
    call = "call MPI_Scatter(" + list({arrayOf(send.buf), send.count, send.type, recv.buf, recv.count,
                                       recv.type, root, comm});
    p.notes.push_back("MPI_Scatter also delivers the root's own block into `" + recv.buf +
                      "`: drop the root's copy of it, and check that `" + arrayOf(send.buf) +
                      "` holds block q at position q");
  } else if (k == "gather") {
    call = "call MPI_Gather(" + list({send.buf, send.count, send.type, arrayOf(recv.buf), recv.count,
                                      recv.type, root, comm});
    p.notes.push_back("MPI_Gather also stores the root's own block: drop the root's copy of it, and "
                      "check that `" + arrayOf(recv.buf) + "` receives block q at position q");
  } else if (k == "alltoall") {
    call = "call MPI_Alltoall(" + list({arrayOf(send.buf), send.count, send.type, arrayOf(recv.buf),
                                        recv.count, recv.type, comm});
    p.notes.push_back("check that block q of `" + arrayOf(send.buf) + "` goes to rank q and lands at "
                      "position q of `" + arrayOf(recv.buf) + "` (the rank's own block included)");
  } else if (k == "allgather") {
    call = "call MPI_Allgather(" + list({"MPI_IN_PLACE", "0", "MPI_DATATYPE_NULL", arrayOf(recv.buf),
                                         recv.count, recv.type, comm});
    p.notes.push_back("in place: each rank's own block must already sit at its rank's position of `" +
                      arrayOf(recv.buf) + "`");
  } else if (k == "reduce") {
    call = "call MPI_Reduce(" + list({send.buf, "<result>", send.count, send.type, op, root, comm});
    p.notes.push_back("the result: the hand-made tree combines into `" + send.buf +
                      "`; name the root's result buffer (or MPI_IN_PLACE on the root)");
  } else if (k == "allreduce") {
    call = "call MPI_Allreduce(" + list({"MPI_IN_PLACE", send.buf, send.count, send.type, op, comm});
    p.notes.push_back("in place: `" + send.buf + "` holds each rank's contribution and then the result, "
                      "as it does in the hand-made exchange");
  } else if (k == "reduce_scatter") {
    // The ring combines blocks of one array of P blocks, receiving each
    // partial block into a scratch buffer.
    call = "call MPI_Reduce_scatter_block(" + list({arrayOf(send.buf), recv.buf, send.count, send.type, op, comm});
    p.notes.push_back("`" + arrayOf(send.buf) + "` holds the rank's P blocks of `" + send.count +
                      "` elements (block q for rank q); MPI_Reduce_scatter_block leaves the rank's combined "
                      "block in `" + recv.buf + "` and the other blocks of `" + arrayOf(send.buf) +
                      "` as they were, where the ring leaves it in a block of `" + arrayOf(send.buf) +
                      "` and partial results in the others: copy it to where the program reads it, and "
                      "check that no one reads the other blocks afterwards");
  } else if (k == "gatherv" || k == "scatterv" || k == "alltoallv" || k == "allgatherv") {
    call = varyingCall(k, send, recv, root, comm, p.notes, supply);
  } else if (k == "barrier") {
    call = "call MPI_Barrier(" + comm;
  } else {
    p.reason = "a Fortran source: no suggestion for a " + k + " yet (the detection report's equivalent "
               "call names it), and no patch (" + noPatch + ")";
    p.suggestionReplaces.clear();
    p.notes.clear();
    return;
  }
  p.suggestion = call + tail;
  if (m.status == "ambiguous") {
    std::string what;
    for (const std::string &u : m.unproven) what += (what.empty() ? "" : ", ") + u;
    p.notes.push_back("the trace does not prove " + what + ": settle it (the detection report's note "
                      "says how) before using this suggestion");
  }
  p.reason = "a Fortran source: no patch (" + noPatch + "); the rationale suggests `" + p.suggestion +
             "` in place of the statements at the sites, built from their source text: check it, and "
             "remove the loop and rank tests around them by hand" + supply;
}

} // namespace cz::rewrite
