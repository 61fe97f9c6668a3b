// pipeline_segments.cpp: pipelined broadcasts joined into one (see
// detect_internal.h, mergeSegments).
#include <algorithm>
#include <array>
#include <map>

#include "detect_internal.h"

namespace cz::detect::detail {

// Pipelined broadcasts: consecutive spread instances with one group and
// root whose root buffers are adjacent pieces of one buffer (the root sent
// them one after the other) are one broadcast of the whole buffer. A
// pipeline sends its pieces through one loop, so the pieces must have
// passed through the same call sites: adjacent variables sent one after
// the other by separate calls (a textbook program's `a` and `b` on the
// stack, each sent to every worker) are separate broadcasts, each of its
// own variable, which is what a patch can name.
namespace {

// The (send, receive) call sites an instance's messages went through,
// with their wrappers' callers, sorted and unique.
using SitePairs = std::vector<std::array<uint64_t, 4>>;
SitePairs sitePairsOf(const MessageTable &t, const Instance &in) {
  SitePairs s;
  s.reserve(in.messages.size());
  for (uint32_t i : in.messages) {
    const Message &m = t.messages[i];
    s.push_back({m.sendSite, m.sendCaller, m.recvSite, m.recvCaller});
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

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

void mergeSegments(const MessageTable &t, std::vector<Instance> &instances) {
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
      SitePairs sites; // the head's, made when a piece is adjacent
      for (; j < idx.size() && instances[idx[j]].rootAddress == end; j++) {
        Instance &piece = instances[idx[j]];
        if (sites.empty()) sites = sitePairsOf(t, head);
        if (sitePairsOf(t, piece) != sites) break;
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
