// reduction_values.cpp: see reduction_values.h.
#include "reduction_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "collectivize_trace_format.h"

namespace cz::detect::detail {

Elem elemOf(uint32_t type) {
  switch (type) {
  case CZ_TRACE_TYPE_CHAR: case CZ_TRACE_TYPE_SIGNED_CHAR: case CZ_TRACE_TYPE_INT8_T:
    return {1, false, true};
  case CZ_TRACE_TYPE_UNSIGNED_CHAR: case CZ_TRACE_TYPE_UINT8_T: case CZ_TRACE_TYPE_BYTE:
    return {1, false, false};
  case CZ_TRACE_TYPE_SHORT: case CZ_TRACE_TYPE_INT16_T: return {2, false, true};
  case CZ_TRACE_TYPE_UNSIGNED_SHORT: case CZ_TRACE_TYPE_UINT16_T: return {2, false, false};
  case CZ_TRACE_TYPE_INT: case CZ_TRACE_TYPE_INT32_T: return {4, false, true};
  case CZ_TRACE_TYPE_UNSIGNED: case CZ_TRACE_TYPE_UINT32_T: return {4, false, false};
  case CZ_TRACE_TYPE_LONG: case CZ_TRACE_TYPE_LONG_LONG: case CZ_TRACE_TYPE_INT64_T:
    return {8, false, true};
  case CZ_TRACE_TYPE_UNSIGNED_LONG: case CZ_TRACE_TYPE_UNSIGNED_LONG_LONG:
  case CZ_TRACE_TYPE_UINT64_T:
    return {8, false, false};
  case CZ_TRACE_TYPE_FLOAT: case CZ_TRACE_TYPE_REAL4: return {4, true, true};
  case CZ_TRACE_TYPE_DOUBLE: case CZ_TRACE_TYPE_REAL8: return {8, true, true};
  case CZ_TRACE_TYPE_INTEGER4: return {4, false, true};
  case CZ_TRACE_TYPE_INTEGER8: return {8, false, true};
  // Default kinds: the tracer records them only with these sizes.
  case CZ_TRACE_TYPE_INTEGER: return {4, false, true};
  case CZ_TRACE_TYPE_REAL: return {4, true, true};
  case CZ_TRACE_TYPE_DOUBLE_PRECISION: return {8, true, true};
  default: return {};
  }
}

Values decode(uint64_t prefix, uint64_t bytes, const Elem &e) {
  Values out;
  uint64_t known = bytes < 8 ? bytes : 8; // the prefix: the payload's first bytes
  for (uint64_t off = 0; off + uint64_t(e.bytes) <= known; off += uint64_t(e.bytes)) {
    uint64_t raw = (prefix >> (8 * off)) & (e.bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * e.bytes)) - 1);
    double d;
    if (e.isFloat && e.bytes == 4) {
      float f;
      uint32_t r32 = uint32_t(raw);
      std::memcpy(&f, &r32, 4);
      d = f;
    } else if (e.isFloat) {
      std::memcpy(&d, &raw, 8);
    } else if (e.isSigned) {
      int shift = 64 - 8 * e.bytes;
      d = double(int64_t(raw << shift) >> shift);
    } else {
      d = double(raw);
    }
    out.v[out.n] = d;
    out.bits[out.n++] = raw;
  }
  return out;
}

namespace {
bool close(double a, double b) {
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

void checkOps(const Values &result, const std::vector<const Values *> &operands, const Elem &e,
              bool ops[kOps]) {
  for (size_t i = 0; i < result.n; i++) {
    double sum = 0, prod = 1, mn = INFINITY, mx = -INFINITY;
    uint64_t band = ~uint64_t(0), bor = 0, bxor = 0;
    for (const Values *o : operands) {
      if (i >= o->n) return;
      sum += o->v[i], prod *= o->v[i];
      mn = std::min(mn, o->v[i]), mx = std::max(mx, o->v[i]);
      band &= o->bits[i], bor |= o->bits[i], bxor ^= o->bits[i];
    }
    uint64_t mask = e.bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * e.bytes)) - 1;
    ops[kSum] &= close(result.v[i], sum);
    ops[kProd] &= close(result.v[i], prod);
    ops[kMin] &= result.v[i] == mn;
    ops[kMax] &= result.v[i] == mx;
    ops[kBand] &= !e.isFloat && result.bits[i] == (band & mask);
    ops[kBor] &= !e.isFloat && result.bits[i] == (bor & mask);
    ops[kBxor] &= !e.isFloat && result.bits[i] == (bxor & mask);
  }
}

void checkOpsWithUnknown(const Values &result, const std::vector<const Values *> &operands,
                         const Elem &e, bool ops[kOps]) {
  uint64_t mask = e.bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * e.bytes)) - 1;
  for (size_t i = 0; i < result.n; i++) {
    double mn = INFINITY, mx = -INFINITY;
    uint64_t band = ~uint64_t(0), bor = 0;
    for (const Values *o : operands) {
      if (i >= o->n) return;
      mn = std::min(mn, o->v[i]), mx = std::max(mx, o->v[i]);
      band &= o->bits[i], bor |= o->bits[i];
    }
    ops[kMin] &= result.v[i] <= mn;
    ops[kMax] &= result.v[i] >= mx;
    ops[kBand] &= !e.isFloat && (result.bits[i] & ~band & mask) == 0;
    ops[kBor] &= !e.isFloat && (bor & ~result.bits[i] & mask) == 0;
    ops[kBxor] &= !e.isFloat;
  }
}

} // namespace cz::detect::detail
