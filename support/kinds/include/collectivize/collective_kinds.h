// collective_kinds.h: the table of collective kinds (collective_kinds.def)
// as data, for the readers of the detection report that look a kind up by
// its name (the HTML report, the rewriter).
#pragma once

#include <cstring>
#include <string>

namespace cz::kinds {

struct CollectiveKind {
  const char *name, *mpiCall;
  bool rooted;
  const char *counts; // "same" or "varying"
  bool reduction, exchange;
  const char *args;
};

inline constexpr CollectiveKind kCollectiveKinds[] = {
#define COLLECTIVE_KIND(Enum, name, call, rooted, counts, reduction, exchange, args) \
  {name, call, rooted, counts, reduction, exchange, args},
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
};

// The kind the report calls `name`, or nullptr.
inline const CollectiveKind *findCollectiveKind(const std::string &name) {
  for (const CollectiveKind &k : kCollectiveKinds)
    if (name == k.name) return &k;
  return nullptr;
}

// True for the v forms: a count (and a displacement) per member.
inline bool hasVaryingCounts(const std::string &name) {
  const CollectiveKind *k = findCollectiveKind(name);
  return k && std::strcmp(k->counts, "varying") == 0;
}

} // namespace cz::kinds
