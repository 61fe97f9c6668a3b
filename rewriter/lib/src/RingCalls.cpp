// RingCalls.cpp: see RingCalls.h. Each call replaces the ring's whole
// loop and names only what the ring analysis proved: the accumulator, the
// receive buffer and the combine step's operation.
#include "RingCalls.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "clang/AST/ASTContext.h"

#include "AstQueries.h"
#include "HalvingExchange.h"
#include "PrefixChain.h"
#include "RingCombine.h"
#include "RingReduceScatter.h"
#include "RingTwoPhase.h"

namespace cz::rewrite {

using namespace clang;

namespace {

std::string refuse(CallPlan &plan, const std::string &why) {
  plan.ok = false;
  plan.whyNot = why;
  return "";
}

// The datatype names the accumulator's element type, when it is one of
// MPI's named C types; "" when it fits (or is the program's own).
std::string datatypeFits(const std::string &type, const VarDecl *accumulator, const std::string &call) {
  static const std::map<std::string, std::string> named = {
      {"MPI_INT", "int"},           {"MPI_DOUBLE", "double"},     {"MPI_FLOAT", "float"},
      {"MPI_LONG", "long"},         {"MPI_LONG_LONG", "long long"}, {"MPI_LONG_LONG_INT", "long long"},
      {"MPI_SHORT", "short"},       {"MPI_UNSIGNED", "unsigned int"}, {"MPI_UNSIGNED_LONG", "unsigned long"},
      {"MPI_CHAR", "char"},         {"MPI_SIGNED_CHAR", "signed char"}, {"MPI_UNSIGNED_CHAR", "unsigned char"},
      {"MPI_LONG_DOUBLE", "long double"}, {"MPI_BYTE", ""}};
  auto it = named.find(squeeze(type));
  if (it == named.end()) return "";
  std::string elem = elementType(accumulator).getAsString();
  if (it->second == elem) return "";
  return "the ring's messages carry " + type + " but it combines them as " + elem + " in '" +
         accumulator->getNameAsString() + "': " + call + " would combine " + type + " values";
}

// The loops first..last lie in the region the patch replaces, and count
// (if any) is valid there: why not, else "". shape: what the reason calls
// the loops.
std::string outsideRegion(const ArgumentContext &args, const std::string &shape, const Stmt *first, const Stmt *last,
                          const Expr *count) {
  const SourceText &src = args.src;
  auto at = [&](const Stmt *s) { return std::to_string(src.line(s->getBeginLoc())); };
  if (args.region.begin > src.offset(first->getBeginLoc()) || args.region.end < src.endOffset(last))
    return first == last ? "the " + shape + "'s loop (line " + at(first) + ") is not part of the region the patch "
                           "would replace"
                         : "the " + shape + "'s loops (lines " + at(first) + " and " + at(last) + ") are not both "
                           "part of the region the patch would replace";
  if (count && mentions(count, args.region.regionLocals))
    return "the " + shape + "'s block count " + src.of(count) + " is not valid at the patch point";
  return "";
}

// The trace's count (P blocks of `block` elements when perRank, else one)
// and its operation, where it shows them, agree with the source's: why
// not, else "". shape: what the reason calls the loops.
std::string traceDisagrees(const ArgumentContext &args, const Expr *block, bool perRank, const std::string &op,
                           const std::string &shape) {
  const DetectedMatch &m = args.match;
  Expr::EvalResult n;
  long long blocks = perRank ? (long long)m.ranks.size() : 1;
  if (m.count > 0 && !block->isValueDependent() && block->EvaluateAsInt(n, args.src.ctx) &&
      n.Val.getInt().getExtValue() * blocks != m.count)
    return "the " + shape + "'s blocks are " + args.src.of(block) + " elements, " +
           (perRank ? std::to_string(blocks) + " of them are" : std::string("which is")) + " not the " +
           std::to_string(m.count) + " elements the trace shows";
  if (!m.op.empty() && m.op != op)
    return "the source combines with " + op + " but the traced values fit " + m.op +
           " only: the two disagree, so neither is trusted";
  return "";
}

// count as a factor: `B`, `(n + 1)`.
std::string factor(const std::string &count) {
  bool plain = std::all_of(count.begin(), count.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
  return plain ? count : "(" + count + ")";
}

} // namespace

// A ring that combines each block as it arrives into an accumulator
// and passes it on (RingCombine.h): every rank ends with all blocks
// combined in the accumulator, an allreduce. "" when the region is no
// such ring; plan.whyNot set when it is one, but not an allreduce.
std::string ringAllreduceCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan, std::string &leftIn) {
  const SourceText &src = args.src;
  const std::string &comm = w.comm, &count = w.count, &type = w.type;
  RingCombine ring = analyzeRing(src, args.sends, args.recvs, comm);
  if (!ring.found || args.region.regionLocals.count(ring.acc)) return "";
  if (!ring.whyNot.empty()) return refuse(plan, ring.whyNot);
  // The call replaces the whole loop, never a step of it.
  if (args.region.begin > src.offset(ring.loop->getBeginLoc()) || args.region.end < src.endOffset(ring.loop))
    return refuse(plan, "the ring's loop (line " + std::to_string(src.line(ring.loop->getBeginLoc())) +
                          ") does not run over the size of " + comm + ", so it is not part of the region the "
                          "patch would replace (line " + std::to_string(args.line(args.sends[0].buffer)) +
                          " only): one MPI_Allreduce per step would combine again what is combined");
  // The patch's count is the messages' count (Arguments.cpp's choice
  // must name the same elements the combine step covers).
  Expr::EvalResult a, b;
  bool sameCount = squeeze(count) == squeeze(src.of(ring.count)) ||
                   (!ring.count->isValueDependent() && ring.count->EvaluateAsInt(a, src.ctx) &&
                    std::to_string(a.Val.getInt().getExtValue()) == squeeze(count));
  if (!sameCount)
    return refuse(plan, "the ring combines the " + src.of(ring.count) + " elements of its messages, but the "
                      "count valid at the region is " + count);
  std::string acc = (ring.array ? "" : "&") + ring.acc->getNameAsString();
  std::string fits = datatypeFits(type, ring.acc, "MPI_Allreduce");
  if (!fits.empty()) return refuse(plan, fits);
  plan.notes.insert(plan.notes.end(), ring.notes.begin(), ring.notes.end());
  plan.review.insert(plan.review.end(), ring.review.begin(), ring.review.end());
  plan.notes.push_back("the result is left in " + ring.acc->getNameAsString() +
                       ", where the ring accumulated it; the buffers it passed blocks through are not read "
                       "afterwards");
  QualType elem = elementType(ring.acc);
  if (elem->isFloatingType() && (ring.op == "MPI_SUM" || ring.op == "MPI_PROD"))
    plan.review.push_back("the ring combines in its own order; MPI_Allreduce's order may round the "
                          "floating-point result differently");
  leftIn = acc;
  return "MPI_Allreduce(MPI_IN_PLACE, " + acc + ", " + count + ", " + type + ", " + ring.op + ", " + comm + ")";
}

// A ring over the blocks of one buffer (RingReduceScatter.h): the call
// receives the rank's block into the ring's receive buffer, then copies
// it where the ring left it. "" and plan.whyNot when it is no such ring.
std::string ringReduceScatterCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan,
                                  std::string &leftIn) {
  const SourceText &src = args.src;
  const std::string &comm = w.comm, &count = w.count, &type = w.type, &rank = w.rank;
  RingReduceScatter ring = analyzeReduceScatterRing(src, args.sends, args.recvs, comm);
  if (!ring.found)
    return refuse(plan, "the sites are not a ring that sends blocks of one buffer and receives into another "
                      "inside a loop (a ring reduce-scatter): no patch shape for this reduce-scatter");
  if (!ring.whyNot.empty()) return refuse(plan, ring.whyNot);
  if (!args.match.recvLayout.empty()) // the trace and the source disagree on the kept block: trust neither
    return refuse(plan, "the trace shows a rank keeping another block than its own (recv_layout " + args.match.recvLayout +
                          "), which the source's ring is not seen to do");
  if (std::string why = outsideRegion(args, "ring", ring.loop, ring.loop, nullptr); !why.empty())
    return refuse(plan, why);
  if (squeeze(count) != squeeze(src.of(ring.count)))
    return refuse(plan, "the ring's blocks are " + src.of(ring.count) + " elements, but the count valid at the "
                      "region is " + count);
  std::string fits = datatypeFits(type, ring.acc, "MPI_Reduce_scatter_block");
  if (!fits.empty()) return refuse(plan, fits);
  std::string acc = ring.acc->getNameAsString(), in = ring.got->getNameAsString();
  std::string n = factor(count);
  plan.notes.insert(plan.notes.end(), ring.notes.begin(), ring.notes.end());
  plan.review.insert(plan.review.end(), ring.review.begin(), ring.review.end());
  plan.notes.push_back("the result is received into " + in + " and copied to block " + rank + " of " + acc +
                       ", where the ring left it; the other blocks and " + in + " are not read afterwards");
  leftIn = acc + " + " + rank + " * " + n;
  // The copy's counter must name no variable of the program: the count,
  // the rank or the buffers may be spelled with one called cz_i.
  std::string i = unusedName(src.ctx, "cz_i");
  return "MPI_Reduce_scatter_block(" + acc + ", " + in + ", " + count + ", " + type + ", " + ring.op + ", " + comm +
         ");\nfor (int " + i + " = 0; " + i + " < " + count + "; " + i + "++) " + acc + "[" + rank + " * " + n +
         " + " + i + "] = " + in + "[" + i + "]";
}

// The two loops of the bandwidth-optimal ring allreduce (RingTwoPhase.h):
// one MPI_Allreduce in place over all P blocks of the accumulator.
std::string ringTwoPhaseAllreduceCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan,
                                      std::string &leftIn) {
  const SourceText &src = args.src;
  const std::string &comm = w.comm, &count = w.count, &type = w.type;
  TwoPhaseRing ring = analyzeTwoPhaseRing(src, args.sends, args.recvs, comm);
  if (!ring.found) return "";
  if (!ring.whyNot.empty()) return refuse(plan, ring.whyNot);
  if (std::string why = outsideRegion(args, "ring", ring.first, ring.second, ring.count); !why.empty())
    return refuse(plan, why);
  // The trace's count is all P blocks.
  if (std::string why = traceDisagrees(args, ring.count, true, ring.op, "ring"); !why.empty()) return refuse(plan, why);
  std::string fits = datatypeFits(type, ring.acc, "MPI_Allreduce");
  if (!fits.empty()) return refuse(plan, fits);
  std::string acc = ring.acc->getNameAsString();
  plan.notes.insert(plan.notes.end(), ring.notes.begin(), ring.notes.end());
  plan.review.insert(plan.review.end(), ring.review.begin(), ring.review.end());
  plan.notes.push_back("operation " + ring.op + " from the combine step of the first loop");
  plan.notes.push_back("the result is left in all " + ring.size->getNameAsString() + " blocks of " + acc +
                       ", where the ring left it; the scratch buffer " + ring.got->getNameAsString() +
                       " is not read afterwards");
  leftIn = acc;
  return "MPI_Allreduce(MPI_IN_PLACE, " + acc + ", " + ring.size->getNameAsString() + " * " + factor(count) + ", " +
         type + ", " + ring.op + ", " + comm + ")";
}

// A recursive halving (HalvingExchange.h): MPI_Reduce_scatter_block into
// the halving's scratch buffer, copied to the rank's block where the loop
// left it; with the doubling after it, MPI_Allreduce in place over all P
// blocks. The operation is the combine step's, the count and buffers the
// source's; the trace only checks them.
std::string halvingCall(const HalvingExchange &h, const ArgumentContext &args, const CallWords &w, CallPlan &plan,
                        std::string &leftIn) {
  const SourceText &src = args.src;
  const DetectedMatch &m = args.match;
  bool allreduce = m.kind == "allreduce";
  if (!h.found) return "";
  if (!h.whyNot.empty()) return refuse(plan, h.whyNot);
  if (!allreduce && !m.recvLayout.empty())
    return refuse(plan, "the trace shows a rank keeping another block than its own (recv_layout " + m.recvLayout +
                            "), which MPI_Reduce_scatter_block would not leave there");
  if (std::string why = outsideRegion(args, "halving", h.first, h.last, h.block); !why.empty())
    return refuse(plan, why);
  if (std::string why = traceDisagrees(args, h.block, allreduce, h.op, "halving"); !why.empty())
    return refuse(plan, why);
  std::string call = allreduce ? "MPI_Allreduce" : "MPI_Reduce_scatter_block";
  std::string fits = datatypeFits(w.type, h.acc, call);
  if (!fits.empty()) return refuse(plan, fits);
  std::string acc = h.acc->getNameAsString(), in = h.got->getNameAsString(), count = src.of(h.block);
  std::string b = factor(count);
  plan.notes.insert(plan.notes.end(), h.notes.begin(), h.notes.end());
  plan.review.insert(plan.review.end(), h.review.begin(), h.review.end());
  plan.notes.push_back("operation " + h.op + " from the combine step in the source");
  if (allreduce) {
    plan.notes.push_back("the result is left in all " + h.size->getNameAsString() + " blocks of " + acc +
                         ", where the loops left it; the scratch buffer " + in + " is not read afterwards");
    leftIn = acc;
    return "MPI_Allreduce(MPI_IN_PLACE, " + acc + ", " + h.size->getNameAsString() + " * " + b + ", " + w.type +
           ", " + h.op + ", " + w.comm + ")";
  }
  plan.notes.push_back("the result is received into " + in + " and copied to block " + w.rank + " of " + acc +
                       ", where the halving left it; the other blocks and " + in + " are not read afterwards");
  leftIn = acc + " + " + w.rank + " * " + b;
  std::string i = unusedName(src.ctx, "cz_i");
  return "MPI_Reduce_scatter_block(" + acc + ", " + in + ", " + count + ", " + w.type + ", " + h.op + ", " + w.comm +
         ");\nfor (int " + i + " = 0; " + i + " < " + count + "; " + i + "++) " + acc + "[" + w.rank + " * " + b +
         " + " + i + "] = " + in + "[" + i + "]";
}

// A chain of ranks passing partial results up (PrefixChain.h): MPI_Scan
// or MPI_Exscan from the buffer holding the rank's own value into the one
// the chain leaves the prefix in. "" alone when the sites are no chain.
std::string prefixChainCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan, std::string &leftIn) {
  const SourceText &src = args.src;
  const DetectedMatch &m = args.match;
  PrefixChain c = analyzePrefixChain(src, args.sends, args.recvs, w.comm, m.kind == "exscan");
  if (!c.found) return "";
  if (!c.whyNot.empty()) return refuse(plan, c.whyNot);
  std::string call = c.exclusive ? "MPI_Exscan" : "MPI_Scan";
  // The call stands for exactly the statements run: a larger region (a
  // loop around them) would run them several times, a smaller one leave
  // some behind.
  if (args.region.begin != c.begin || args.region.end != c.end)
    return refuse(plan, "the region the patch would replace is not exactly the chain's statements (lines " +
                            std::to_string(c.firstLine) + "-" + std::to_string(c.lastLine) + ") that were run");
  if (squeeze(w.count) != squeeze(src.of(c.count)))
    return refuse(plan, "the chain's messages carry " + src.of(c.count) + " elements, but the count valid at the "
                        "region is " + w.count);
  if (std::string why = traceDisagrees(args, c.count, false, c.op, "chain"); !why.empty()) return refuse(plan, why);
  if (std::string fits = datatypeFits(w.type, c.result, call); !fits.empty()) return refuse(plan, fits);
  auto text = [](const VarDecl *v) {
    return (v->getType()->isArrayType() || v->getType()->isPointerType() ? "" : "&") + v->getNameAsString();
  };
  std::string result = text(c.result), own = c.own == c.result ? "MPI_IN_PLACE" : text(c.own), into = result;
  plan.notes.insert(plan.notes.end(), c.notes.begin(), c.notes.end());
  plan.review.insert(plan.review.end(), c.review.begin(), c.review.end());
  plan.notes.push_back("operation " + c.op + " from the combine step in the source");
  if (c.own == c.result)
    plan.notes.push_back("the chain accumulates in " + c.result->getNameAsString() +
                         ", which holds the rank's own value where it starts: MPI_IN_PLACE");
  if (m.kind == "reduce")
    plan.notes.push_back("the trace shows a reduce to the last rank, but every rank keeps its partial result in " +
                         c.result->getNameAsString() + ", as MPI_Scan leaves it and MPI_Reduce would not: the "
                         "source makes it a scan");
  if (c.exclusive && c.rank0Scratch && c.rank0Unkept.empty()) {
    into = "(" + w.rank + " == 0 ? " + text(c.rank0Scratch) + " : " + result + ")";
    plan.notes.push_back("rank 0's " + c.result->getNameAsString() + " keeps its value through the chain and the "
                         "program reads it; MPI_Exscan leaves rank 0's result undefined, so rank 0 receives into " +
                         c.rank0Scratch->getNameAsString() + ", which the chain writes and nothing reads afterwards");
  }
  leftIn = result;
  return call + "(" + own + ", " + into + ", " + w.count + ", " + w.type + ", " + c.op + ", " + w.comm + ")";
}

} // namespace cz::rewrite
