// RingReduceScatter.h: a ring over the blocks of one buffer that combines
// what arrives (private to the rewriter library). Every rank holds P
// blocks of count elements in one buffer; in each of P-1 steps it sends
// one block (`acc + out * n`) to a neighbour, receives one into another
// buffer (`in`) from the other neighbour, and combines it element by
// element into one of its blocks (`for (i < n) acc[got * n + i] += in[i]`).
// When every rank r ends with block r holding every rank's block r
// combined once, the loop is MPI_Reduce_scatter_block(acc, in, n, ...)
// followed by a copy of the result to where the ring left it.
//
// The block indices and neighbours are expressions of the rank, the size
// and the step; rather than proving them equal to a formula, the ring is
// run on paper: its index arithmetic is evaluated for every rank at
// several sizes (2, 3, 4, 5, 7), following which ranks' contributions
// each block holds. A ring that leaves rank i with another block (i+1,
// say) is refused with the rank and block that show it.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct RingReduceScatter {
  // The sites send blocks of one buffer and receive into another inside a
  // loop: a reduce-scatter ring, or no patch (whyNot).
  bool found = false;
  std::string whyNot;
  const clang::VarDecl *acc = nullptr, *got = nullptr;
  const clang::Stmt *loop = nullptr;
  const clang::Stmt *combineStep = nullptr; // the collective's own work in the loop
  const clang::Expr *count = nullptr; // the messages' count expression
  std::string op;                     // the combine step's MPI_Op
  // The offsets (in elements) of the block sent and of the block combined into.
  const clang::Expr *sendOffset = nullptr, *combineOffset = nullptr;
  std::string shape = "ring"; // what the refusals call the loop
  std::vector<std::string> notes, review;
};

// comm: the communicator's text (MPI_Comm_rank/size on it name the rank
// and the size the indices are written in). firstPhaseOnly: the ring is
// the first half of an allreduce (RingTwoPhase.h), which runs it on paper
// itself and judges what is read afterwards: only its loop is read.
RingReduceScatter analyzeReduceScatterRing(const SourceText &src, const std::vector<MessageArgs> &sends,
                                           const std::vector<MessageArgs> &recvs, const std::string &comm,
                                           bool firstPhaseOnly = false);

// The combine step: `for (i = 0; i < n; i++) acc[k + i] op= in[i]` (or
// `acc[k + i] = acc[k + i] op in[i]`, either operand order): its MPI_Op,
// k (the offset of the block it combines into) and n.
struct Combine {
  std::string op;
  const clang::Expr *offset = nullptr, *elements = nullptr;
};
bool combineOf(const SourceText &src, const clang::Stmt *s, const clang::VarDecl *acc, const clang::VarDecl *got,
               Combine &out);

// After r.loop (and in a loop around it) the program reads of r.acc only
// the block the rank ends with (r.count elements at rank * r.count), and
// nothing of r.got; else r.whyNot. ev has read the function.
struct RingEvaluator;
void checkReduceScatterLeftovers(const SourceText &src, RingReduceScatter &r, RingEvaluator &ev);

// v is an array of the function's own or a pointer to an allocation it
// makes: no code elsewhere reads what the loop leaves in it.
bool ownsMemory(const clang::VarDecl *v);

// `acc + x`, `&acc[x]`: acc, with x the offset in elements (else null).
const clang::VarDecl *blockOf(const clang::Expr *e, const clang::Expr *&offset);

} // namespace cz::rewrite
