// VaryingArrays.cpp: see VaryingArrays.h.
#include "VaryingArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include "AstQueries.h"
#include "RingAllgatherv.h"

namespace cz::rewrite {

using namespace clang;

std::pair<const Expr *, const Expr *> arrayElement(const Expr *e) {
  const auto *s = dyn_cast<ArraySubscriptExpr>(strip(e));
  if (!s || !isa<DeclRefExpr>(strip(s->getBase()))) return {nullptr, nullptr};
  return {strip(s->getBase()), strip(s->getIdx())};
}

std::pair<const Expr *, const Expr *> bufferAtOffset(const Expr *e) {
  e = strip(e);
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Add) {
    bool left = b->getLHS()->getType()->isPointerType();
    return {strip(left ? b->getLHS() : b->getRHS()), strip(left ? b->getRHS() : b->getLHS())};
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(strip(u->getSubExpr())))
      return {strip(a->getBase()), strip(a->getIdx())};
  return {nullptr, nullptr};
}

namespace {

} // namespace

std::string textAt(const ArgumentContext &c, const Expr *e) {
  return "`" + c.src.of(e) + "` (line " + std::to_string(c.line(e)) + ")";
}

SideArrays sideArrays(const ArgumentContext &c, const std::vector<MessageArgs> &side, bool sending) {
  SideArrays out;
  auto refuse = [&](const std::string &why) {
    out.buffer = out.counts = out.displs = out.index = "";
    if (out.whyNot.empty()) out.whyNot = why;
    return out;
  };
  const std::string site = sending ? "the send" : "the receive", uses = sending ? " reads " : " writes ";
  bool peers = true;
  for (const MessageArgs &a : side) {
    auto [countArray, countIndex] = arrayElement(a.count);
    if (!countArray)
      return refuse(site + " at line " + std::to_string(c.line(a.count)) + " moves " + textAt(c, a.count) +
                    " elements, not an element of an array of counts indexed by the block's rank");
    auto [base, displacement] = bufferAtOffset(a.buffer);
    auto [displsArray, displsIndex] = displacement ? arrayElement(displacement) : std::make_pair(nullptr, nullptr);
    if (!displsArray)
      return refuse(site + " at line " + std::to_string(c.line(a.buffer)) + uses + textAt(c, a.buffer) +
                    ", not a buffer at an element of an array of displacements");
    if (squeeze(c.src.of(countIndex)) != squeeze(c.src.of(displsIndex)))
      return refuse(site + " at line " + std::to_string(c.line(a.count)) + " takes its count at index `" +
                    c.src.of(countIndex) + "` and its displacement at index `" + c.src.of(displsIndex) +
                    "`: not one rank's count and displacement");
    std::string b = c.src.of(base), n = c.src.of(countArray), d = c.src.of(displsArray);
    if (!out.counts.empty() && (squeeze(b) != squeeze(out.buffer) || squeeze(n) != squeeze(out.counts) ||
                                squeeze(d) != squeeze(out.displs)))
      return refuse(site + "s name different buffers or arrays (" + out.buffer + ", " + out.counts + ", " +
                    out.displs + " and " + b + ", " + n + ", " + d + ")");
    for (const Expr *e : {base, countArray, displsArray}) {
      std::string why;
      if (!c.holds(e, &why)) return refuse(textAt(c, e) + " does not hold at the patch point: " + why);
    }
    // MPI takes the counts and displacements as int arrays: another
    // element type would need a converted copy, which is the program's to make.
    for (const Expr *e : {countArray, displsArray}) {
      QualType t = e->getType();
      QualType element = t->isPointerType() ? t->getPointeeType()
                         : t->isArrayType() ? QualType(t->getPointeeOrArrayElementType(), 0)
                                            : QualType();
      if (element.isNull() || !c.src.ctx.hasSameUnqualifiedType(element, c.src.ctx.IntTy))
        return refuse("the array " + textAt(c, e) + " holds " +
                      (element.isNull() ? t : element.getUnqualifiedType()).getAsString() +
                      " elements, not int: MPI takes counts and displacements as int arrays");
    }
    // The arrays' contents, not only the pointers, must be those the
    // sites read: nothing in the region writes them.
    for (const Expr *e : {countArray, displsArray}) {
      const VarDecl *v = referencedVar(e);
      if (!v || c.flow.memoryWrittenIn(v, c.region.begin, c.region.end, c.precede))
        return refuse("the array " + textAt(c, e) + " is written inside the region: its elements at the patch "
                      "point are not those the " + (sending ? "sends" : "receives") + " used");
    }
    out.buffer = b, out.counts = n, out.displs = d, out.index = c.src.of(countIndex);
    peers = peers && a.peer && squeeze(c.src.of(strip(a.peer))) == squeeze(out.index);
    out.last = {base, countArray, displsArray, countIndex};
  }
  out.indexIsPeer = peers;
  return out;
}

VaryingArrays receiveArrays(const ArgumentContext &c) {
  VaryingArrays out;
  const MessageArgs &first = c.recvs[0];
  out.placeholderNotes = {
      "<recvcounts>: an int array the program must supply on every rank, one element per rank of the "
      "communicator: element q is the number of elements in rank q's block. The hand-made receive moves " +
          textAt(c, first.count) + "; no count the trace saw is used (those hold for the traced run only)",
      "<displs>: an int array the program must supply on every rank: element q is where rank q's block "
      "starts in the receive buffer, counted in elements of its datatype. The hand-made receive writes " +
          textAt(c, first.buffer)};
  SideArrays side = sideArrays(c, c.recvs, false);
  if (side.counts.empty()) return out.whyNot = side.whyNot, out;
  out.buffer = side.buffer, out.counts = side.counts, out.displs = side.displs, out.index = side.index;
  auto refuse = [&](const std::string &why) {
    out.buffer = out.counts = out.displs = out.index = "";
    if (out.whyNot.empty()) out.whyNot = why;
    return out;
  };
  bool peers = side.indexIsPeer;
  const auto &ring = side.last;
  out.indexIsPeer = peers;
  if (!peers) {
    // A ring: which index names which block is run on paper.
    RingBlocks blocks = ringAllgathervBlocks(c.src, c.sends, c.recvs, ring[0], ring[1], ring[2], ring[3],
                                             c.src.of(c.recvs[0].comm));
    if (blocks.verdict == RingBlocks::Wrong) {
      out.wrongBlocks = true;
      return refuse("the ring does not leave rank j's block at " + out.displs + "[j] with " + out.counts +
                    "[j] elements on every rank, where MPI_Allgatherv leaves it: " + blocks.why);
    }
    if (blocks.verdict == RingBlocks::Proven)
      out.notes.push_back(blocks.note);
    else
      out.review.push_back("each receive stores the block of rank " + out.index + " (not the rank it receives "
                           "from)" + (blocks.why.empty() ? "" : ", and " + blocks.why) + ": check that " +
                           out.counts + "[q] and " + out.displs + "[q] are rank q's count and displacement (the "
                           "trace shows each block at one displacement on every rank, not which index names it)");
  }
  out.notes.push_back("recvcounts: " + out.counts + ", displs: " + out.displs + " (the arrays every receive "
                      "takes its count and displacement from, at index " + out.index + ", unchanged across the "
                      "region)");
  return out;
}

} // namespace cz::rewrite
