// PrefixChain.h: a prefix reduction along the chain of ranks (private to the
// rewriter library). Rank r receives from ranks below it and sends to ranks
// above it, and combines what arrives with its own value: an inclusive
// chain (`if (me > 0) recv(got); sum = got + mine; if (me + 1 < p)
// send(sum)`) leaves each rank with ranks 0..r combined (MPI_Scan), an
// exclusive one (own values passed up first, then partial sums) with ranks
// 0..r-1 (MPI_Exscan). The trace cannot show where a rank keeps its result
// (no message carries it), so the statements between the first and the
// last message are run on paper, statement by statement, for every rank in
// rank order at P = 2, 3, 4, 5 and 7: which buffer holds the rank's own
// value where they start, which holds the prefix where they end, with
// which MPI_Op, and what else they leave behind.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

struct PrefixChain {
  // The sites' statements were run: a chain, proven (whyNot empty) or not.
  bool found = false;
  std::string whyNot;
  bool exclusive = false;
  const clang::VarDecl *own = nullptr, *result = nullptr; // own == result: in place
  const clang::Expr *count = nullptr;                     // the messages' count
  std::string op;                                         // the combine step's MPI_Op
  unsigned begin = 0, end = 0;                            // the statements run (offsets)
  unsigned firstLine = 0, lastLine = 0;
  // Exclusive: rank 0's result is read afterwards and the chain leaves it
  // as it was, which MPI_Exscan does not promise: rank 0 receives into
  // rank0Scratch instead (a buffer the chain writes and nothing reads
  // afterwards). rank0Unkept: no such buffer, or rank 0's result is set
  // by the chain: why (review).
  bool rank0Kept = false;
  const clang::VarDecl *rank0Scratch = nullptr;
  std::string rank0Unkept;
  // The combine and copy statements: the call's own work, dropped with it.
  std::set<const clang::Stmt *> steps;
  std::set<const clang::VarDecl *> writes; // what the chain writes
  std::vector<std::string> notes, review;
};

// comm: the communicator's text (MPI_Comm_rank/size on it name the rank
// and the size the conditions are written in). exclusive: the result
// sought holds the lower ranks' values only (an exscan); a chain leaves
// both kinds of prefix (the receive buffer holds rank r-1's), so the
// match's kind says which one is the result.
PrefixChain analyzePrefixChain(const SourceText &src, const std::vector<MessageArgs> &sends,
                               const std::vector<MessageArgs> &recvs, const std::string &comm, bool exclusive);

} // namespace cz::rewrite
