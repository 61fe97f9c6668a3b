// FortranRequests.h: the nonblocking form of the Fortran bcast patch
// (FortranBcastPatch.h), where the root's loop starts its sends with
// MPI_Isend into a request array and completes them right after the loop:
//
//   do q = 1, p - 1
//     call MPI_Isend(buf, n, type, q, tag, comm, reqs(q), ierr)
//   end do
//   call MPI_Waitall(p - 1, reqs, MPI_STATUSES_IGNORE, ierr)
//
// The MPI_Waitall goes with the sends only when it completes exactly the
// loop's requests: its count is the loop's trip count, its array starts
// at the loop's first element (`reqs(1)`, `reqs(1:)`, `reqs(1:p-1)`, or
// `reqs` declared with lower bound 1 in the unit), its statuses are ignored or read nowhere else,
// and the request array is used nowhere else in the unit (the patch would
// leave it without the loop's requests).
#pragma once

#include <string>
#include <vector>

#include "FortranStatements.h"

namespace cz::rewrite::fortran {

struct IsendLoop {
  const std::string *source = nullptr;           // the whole file
  const std::vector<std::string> *lines = nullptr;
  bool fixed = false;
  std::string file;                              // for file:line in reasons
  size_t unitFirst = 0, unitLast = 0;            // the program unit, 0-based lines
  unsigned blockFirst = 0, blockLast = 0;        // the if block, 1-based lines
  const Statement *loop = nullptr;
  bool guarded = false;                          // `if (q /= root)` in the loop
  std::string request;                           // the MPI_Isend's request argument
  std::string size;                              // the loop runs to `size - 1`
  const Statement *waitall = nullptr;            // the call after the loop, if any
};

// True when the waitall completes exactly the loop's requests (`note`
// says so for the rationale); else `why` names what does not fit.
bool waitallCompletesLoop(const IsendLoop &l, std::string &note, std::string &why);

// `call MPI_Waitall(` opens the statement.
bool isWaitallStatement(const Statement &s);

} // namespace cz::rewrite::fortran
