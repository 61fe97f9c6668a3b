// RingTwoPhase.h: the bandwidth-optimal ring allreduce (private to the
// rewriter library). Two loops over the P blocks of one buffer `acc`, one
// after the other: a reduce-scatter ring (RingReduceScatter.h: each step
// sends a block to one neighbour, receives one into a scratch buffer `in`
// from the other and combines it into a block of acc), then an allgather
// ring (each step sends a block of acc and receives another block of acc
// in its place). When every rank ends with every block k of acc holding
// every rank's block k combined once, the two loops are
// MPI_Allreduce(MPI_IN_PLACE, acc, P * n, ...).
//
// As for the reduce-scatter, nothing is matched against a formula: both
// loops' index arithmetic is run on paper (RingEvaluator.h) for every rank
// at each size tried, following which rank's block of which index each
// block of acc holds, combined how often.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct TwoPhaseRing {
  // The sites are one send and one receive in each of two loops, the
  // first receiving into a buffer of its own, the second into acc: a
  // two-phase ring, an allreduce or no patch (whyNot).
  bool found = false;
  std::string whyNot;
  const clang::VarDecl *acc = nullptr, *got = nullptr;
  const clang::VarDecl *size = nullptr; // the variable holding the communicator's size
  const clang::Stmt *first = nullptr, *second = nullptr; // the two loops
  const clang::Stmt *combineStep = nullptr;              // the first loop's combine step
  const clang::Expr *count = nullptr;                    // elements per block
  std::string op;                                        // the combine step's MPI_Op
  std::vector<std::string> notes, review;
};

// The scratch buffer got holds the last block received; a call replacing
// the loops first..last leaves it as it was, so nothing may read it after
// them (nor before them in a loop around them): why not, else "". shape:
// what the reason calls the loops ("ring").
std::string scratchReadAfter(const SourceText &src, const clang::VarDecl *got, const clang::Stmt *first,
                             const clang::Stmt *last, const std::string &shape);
// second is the statement right after first in one block.
bool followsDirectly(const SourceText &src, const clang::Stmt *first, const clang::Stmt *second);

TwoPhaseRing analyzeTwoPhaseRing(const SourceText &src, const std::vector<MessageArgs> &sends,
                                 const std::vector<MessageArgs> &recvs, const std::string &comm);

} // namespace cz::rewrite
