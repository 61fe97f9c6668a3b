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

// The same-counts form a v form generalizes, by its MPI call without the
// trailing v (gatherv -> gather); any other kind is its own. Two runs of
// one program that show "gather" at one process count and "gatherv" at
// another (the blocks happen to be equal there) show one collective.
inline std::string sameCountsForm(const std::string &name) {
  const CollectiveKind *k = findCollectiveKind(name);
  if (!k || std::strcmp(k->counts, "varying") != 0) return name;
  std::string call = k->mpiCall;
  call.pop_back();
  for (const CollectiveKind &other : kCollectiveKinds)
    if (call == other.mpiCall) return other.name;
  return name;
}

} // namespace cz::kinds
