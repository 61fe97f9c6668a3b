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
// the loop may start at 1 instead; the loop's sends may be MPI_Isend
// completed by an MPI_Waitall of exactly their requests right after the
// loop, FortranRequests.h), which becomes
// `call MPI_Bcast(buf, n, type, root, comm, ierr)`. The block is read
// statement by statement (continuation lines joined; free form, or fixed
// form with a labelled `do 20 q = ...` ending at `20 continue`) around
// exactly the match's two sites (the root's assignments and prints before
// its loop are kept in an `if` before the call, those after its loop in
// one after it); anything else in it (other statements,
// comments, `;`, other labels, text past column 72 in fixed form),
// arguments that differ between the two calls, a loop that does not
// provably skip the root, or a status read elsewhere refuses the patch, and
// the match keeps its suggestion (FortranSuggestion.h) with the refusal as
// the reason. The new call keeps the form's line length (132 columns, or
// column 72 in fixed form), continued after a comma when it does not fit.
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
