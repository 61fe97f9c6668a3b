// HalvingExchange.h: recursive halving over the blocks of one buffer
// (private to the rewriter library). In each round a rank exchanges with
// rank ^ mask: it sends the half of the range it still works on that its
// partner keeps (`acc + give * n`), receives the other half into a scratch
// buffer (`in`) and combines it into the half it keeps
// (`for (i < half * n) acc[keep * n + i] += in[i]`). After log2 P rounds
// the rank holds one block combined over every rank: a reduce-scatter.
// Undone by recursive doubling (a second loop exchanging the finished
// ranges with the same partners in reverse order, received into acc beside
// the rank's own), every rank holds every block: Rabenseifner's allreduce.
//
// The rounds carry their state from one to the next (the range's start and
// length, the mask), so unlike a ring's indices they are no formula of the
// step: the loops are run on paper statement by statement, for every rank
// at P = 2, 4, 8 and 16, following which rank's element each element of
// acc holds, combined how often.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct HalvingExchange {
  // The sites exchange with `rank ^ x` inside one loop (a reduce-scatter)
  // or two adjacent loops (an allreduce): a halving, or no patch (whyNot).
  bool found = false;
  std::string whyNot;
  const clang::VarDecl *acc = nullptr, *got = nullptr;
  const clang::VarDecl *size = nullptr; // the communicator's size, unchanged (allreduce)
  const clang::Stmt *first = nullptr, *last = nullptr; // the loops the call replaces
  const clang::Expr *block = nullptr; // elements of one rank's block, from the source
  std::string op;                     // the combine step's MPI_Op
  std::vector<std::string> notes, review;
};

// Every site's peer is `r ^ x` (a partner at a bit distance): the sites
// are a halving's, or none (the caller's other shapes judge them).
bool exchangesWithXorPartner(const std::vector<MessageArgs> &sends, const std::vector<MessageArgs> &recvs);

// allreduce: the halving followed by the doubling; else the halving alone.
HalvingExchange analyzeHalving(const SourceText &src, const std::vector<MessageArgs> &sends,
                               const std::vector<MessageArgs> &recvs, const std::string &comm, bool allreduce);

} // namespace cz::rewrite
