// pipeline_segments.cpp: pipelined broadcasts joined into one (see
// detect_internal.h, mergeSegments).
#include <algorithm>
#include <map>

#include "detect_internal.h"

namespace cz::detect::detail {

// Pipelined broadcasts: consecutive spread instances with one group and
// root whose root buffers are adjacent pieces of one buffer (the root sent
// them one after the other) are one broadcast of the whole buffer.
namespace {

// (communicator, group, root) of an instance, the group read in place: a
// key holding a copy of the group cost an allocation per lookup (27,000
// on the bench trace). Ordered as the tuple of the three would be.
struct RootKey {
  uint32_t comm;
  const std::vector<uint32_t> *participants;
  uint32_t root;
  bool operator<(const RootKey &o) const {
    if (comm != o.comm) return comm < o.comm;
    if (*participants != *o.participants) return *participants < *o.participants;
    return root < o.root;
  }
};

} // namespace

void mergeSegments(std::vector<Instance> &instances) {
  std::map<RootKey, std::vector<size_t>> byRoot;
  for (size_t i = 0; i < instances.size(); i++)
    if (instances[i].kind == Kind::Bcast && instances[i].rootAddress)
      byRoot[{instances[i].comm, &instances[i].participants, instances[i].rootWorld}].push_back(i);
  std::vector<uint8_t> gone(instances.size(), 0);
  for (auto &[key, idx] : byRoot) {
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
      return instances[a].rootFirstSend < instances[b].rootFirstSend;
    });
    for (size_t i = 0; i < idx.size();) {
      Instance &head = instances[idx[i]];
      uint64_t end = head.rootAddress + head.bytes;
      size_t j = i + 1;
      for (; j < idx.size() && instances[idx[j]].rootAddress == end; j++) {
        Instance &piece = instances[idx[j]];
        end += piece.bytes;
        head.bytes += piece.bytes;
        head.count += piece.count;
        head.segments++;
        head.messages.insert(head.messages.end(), piece.messages.begin(), piece.messages.end());
        head.oneTag = head.oneTag && piece.oneTag;
        gone[idx[j]] = 1;
      }
      i = j;
    }
  }
  size_t w = 0;
  for (size_t i = 0; i < instances.size(); i++)
    if (!gone[i]) {
      if (w != i) instances[w] = std::move(instances[i]);
      w++;
    }
  instances.resize(w);
}

} // namespace cz::detect::detail
