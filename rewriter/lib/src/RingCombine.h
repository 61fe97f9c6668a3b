// RingCombine.h: a ring that combines each block as it arrives (private to
// the rewriter library). Every rank sends a buffer to one neighbour and
// receives into another from the other neighbour, P-1 times; after each
// step it combines what arrived into an accumulator, element by element,
// and forwards what arrived (pass-along), so every rank's contribution
// passes every rank once: with the accumulator starting from the rank's
// own contribution, it ends holding all of them combined, which is what
// MPI_Allreduce leaves. Scalars (`sum += got; pass = got;`) and arrays
// (`for (i < n) sum[i] += in[i]; memcpy(pass, in, sizeof pass);`, or
// std::copy, or an element loop); arrays may also be forwarded by swapping
// the send and receive pointers at the end of each step
// (`t = pass; pass = in; in = t;`).
//
// RingCombine.cpp reads the loop's body (the combine step and its MPI_Op,
// the forward); RingContext.cpp what surrounds it (the values the
// accumulator and the sent buffer start from, what the program reads
// afterwards, the number of steps).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct RingCombine {
  // The receive buffer is combined into one variable inside the loop that
  // holds the messages: a combining ring, an allreduce or no patch.
  bool found = false;
  std::string whyNot; // found, but no allreduce the source proves: why
  const clang::VarDecl *acc = nullptr, *pass = nullptr, *got = nullptr;
  const clang::Stmt *loop = nullptr;
  bool array = false;          // blocks of count elements, else one value
  bool forwardsPartial = false; // the ring sends its accumulator (acc == pass)
  // The forward swaps the pointers pass and got at the end of each step,
  // through swapTemp (null for std::swap).
  bool swaps = false;
  const clang::VarDecl *swapTemp = nullptr;
  // The function's own arrays swapped pointers start at (`int *pass = a`),
  // null for a pointer to an allocation of its own (RingContext.cpp).
  const clang::VarDecl *passArray = nullptr, *gotArray = nullptr;
  std::string op;              // MPI_SUM, ...
  const clang::Expr *count = nullptr; // the sites' count expression
  const clang::Expr *sendPeer = nullptr, *recvPeer = nullptr; // null when the sites differ
  // The combine and forward statements: the collective's own work.
  std::set<const clang::Stmt *> steps;
  std::vector<std::string> notes, review;
};

// The ring the sites' messages form, if the source combines what they
// carry; comm: the communicator's text, whose size bounds the loop.
RingCombine analyzeRing(const SourceText &src, const std::vector<MessageArgs> &sends,
                        const std::vector<MessageArgs> &recvs, const std::string &comm);

// RingContext.cpp, for analyzeRing: each adds to ring.whyNot or
// ring.review. The accumulator and the sent buffer start from the same
// values (the rank's own contribution).
void checkRingStart(const SourceText &src, RingCombine &ring);
// The receive buffer and the sent buffer, which the ring leaves holding
// another rank's block and MPI_Allreduce leaves as they were, are read
// nowhere after the loop (nor before it in a loop around it).
void checkRingLeftovers(const SourceText &src, RingCombine &ring);
// The loop runs P-1 steps, P the size of comm, each a message to the next
// rank and from the previous one (or the other way round).
void checkRingSteps(const SourceText &src, RingCombine &ring, const std::string &comm);

// Shared by both files.
const clang::Stmt *parentStmt(const SourceText &src, const clang::Stmt *s);
// `n * sizeof(double)`, `sizeof pass` (when n is constant): the bytes of
// count elements of elem, at least.
bool coversCount(const SourceText &src, const clang::Expr *bytes, const clang::Expr *count,
                 clang::QualType elem);
// `memcpy(to, from, bytes)`, `std::copy(from, from + count, to)`,
// `std::copy_n(from, count, to)` copying all count elements of from into
// to (both named whole, of one element type): to, else null.
const clang::VarDecl *copiedWhole(const SourceText &src, const clang::Stmt *s, const clang::Expr *count,
                                  const clang::VarDecl **from);
// The variable an array, pointer or `&x` / `&x[0]` argument names whole.
const clang::VarDecl *wholeBuffer(const SourceText &src, const clang::Expr *e);
// The element type of an array or pointer variable, else its own type.
clang::QualType elementType(const clang::VarDecl *v);

} // namespace cz::rewrite
