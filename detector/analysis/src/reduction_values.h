// reduction_values.h: the first elements of a payload as values, and which
// predefined operations a combined value fits. Shared by the rules that
// prove a reduction by its values (reduction.cpp, prefix_reduction.cpp):
// the trace holds each payload's first 8 bytes (its prefix).
#pragma once

#include <cstdint>
#include <vector>

namespace cz::detect::detail {

enum Op { kSum, kProd, kMin, kMax, kBand, kBor, kBxor, kOps };
inline const char *const kOpNames[kOps] = {"MPI_SUM", "MPI_PROD", "MPI_MIN", "MPI_MAX",
                                           "MPI_BAND", "MPI_BOR", "MPI_BXOR"};

// Element width and kind of a datatype code (0 when not decodable).
struct Elem {
  int bytes = 0;
  bool isFloat = false, isSigned = false;
};
Elem elemOf(uint32_t type);

// Elements of a whole payload (bytes <= 8), as doubles for comparison and
// raw bits for the bitwise ops.
// At most 8 (bytes): fixed arrays, no allocation (every round of every
// exchange decodes its messages).
struct Values {
  double v[8];
  uint64_t bits[8];
  uint8_t n = 0;
};
Values decode(uint64_t prefix, uint64_t bytes, const Elem &e);

// Is `result` op(operands...) for each op still possible? Clears ops[k]
// for each op it is not (element by element, as far as all are known).
void checkOps(const Values &result, const std::vector<const Values *> &operands, const Elem &e,
              bool ops[kOps]);

// The same when one operand is unknown (a rank's own contribution, which
// the trace never shows): `result` is op(x, operands...) for some x. Only
// what no x can give is ruled out: a MIN above, or a MAX below, an operand;
// a BAND with a bit no operand has set, a BOR without a bit one has. SUM,
// PROD and BXOR fit any result (x can be chosen), as do floats' MIN and MAX
// inside the operands' range.
void checkOpsWithUnknown(const Values &result, const std::vector<const Values *> &operands,
                         const Elem &e, bool ops[kOps]);

} // namespace cz::detect::detail
