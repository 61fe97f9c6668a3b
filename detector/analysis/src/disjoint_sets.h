// disjoint_sets.h: the union-find the analyses share (a spread's
// instances, a long bcast's rolls, a reduction round's parts): parent[x]
// is x for a set's root; the root of x's set, halving the path on the way.
#pragma once

#include <vector>

namespace cz::detect::detail {

template <typename Index> Index findSet(std::vector<Index> &parent, Index x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

} // namespace cz::detect::detail
