// FortranBcastPatch.h: the one Fortran shape the rewriter patches without
// a Fortran parser, a hand-made broadcast written exactly as
//
//   if (me == root) then                 ! or: if (me /= root) then, the
//     do q = 0, p - 1                    !     receive first
//       if (q /= root) call MPI_Send(buf, n, type, q, tag, comm, ierr)
//     end do
//   else
//     call MPI_Recv(buf, n, type, root, tag, comm, status, ierr)
//   end if
//
// (the guard may be a block `if ... then / call / end if`; with root 0
// the loop may start at 1 instead), which becomes
// `call MPI_Bcast(buf, n, type, root, comm, ierr)`. The block is read line
// by line around exactly the match's two sites; anything else in it (other
// statements, comments, continuation lines, `;`, labels), arguments that
// differ between the two calls, a loop that does not provably skip the
// root, or a status read elsewhere refuses the patch, and the match keeps
// its suggestion (FortranSuggestion.h) with the refusal as the reason.
#pragma once

#include <string>

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Rewrite.h"

namespace cz::rewrite {

// A confirmed bcast in p.original (p.path, p.file set): true with p a
// patch (status "proposed", or "review" with p.review saying what the text
// does not show: the loop's bound and the rank taken from MPI_Comm_size
// and MPI_Comm_rank in the same program unit, a loop variable used
// elsewhere); false with `why` saying what refused it.
bool patchFortranBcast(const DetectedMatch &m, PatchPlan &p, std::string &why);

} // namespace cz::rewrite
