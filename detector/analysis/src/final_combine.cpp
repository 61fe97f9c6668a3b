// final_combine.cpp: see final_combine.h.
#include "final_combine.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cz::detect::detail {
namespace {

using ReceiveCall = std::pair<uint64_t, uint64_t>; // (site, caller)

ReceiveCall receiveCallOf(const Message &m) { return {m.recvSite, m.recvCaller}; }

bool finalCombineUnseen(const MessageTable &t, const Instance &in) {
  // Each member's last send of the instance.
  std::map<uint32_t, uint32_t> lastSend;
  for (uint32_t i : in.messages) {
    const Message &m = t.messages[i];
    auto [it, fresh] = lastSend.try_emplace(m.src, m.sendPos);
    if (!fresh) it->second = std::max(it->second, m.sendPos);
  }
  // The receive calls of earlier receipts, and per receive call the values
  // (CRC, size) of the last receipts through it.
  std::set<ReceiveCall> earlier;
  std::map<ReceiveCall, std::set<std::pair<uint32_t, uint64_t>>> last;
  for (uint32_t i : in.messages) {
    const Message &m = t.messages[i];
    auto s = lastSend.find(m.dst);
    if (s != lastSend.end() && m.recvPos < s->second) {
      earlier.insert(receiveCallOf(m));
      continue;
    }
    if (!m.hashed) return false; // values unknown: nothing to tell
    last[receiveCallOf(m)].insert({m.crc, m.bytes});
  }
  // A call of its own that brings one value to all (the result going down
  // to ranks outside a butterfly) is fine; one that brings other values to
  // other members brings partial results.
  for (const auto &[call, values] : last)
    if (!earlier.count(call) && values.size() >= 2) return true;
  return false;
}

} // namespace

void markUnseenFinalCombines(const MessageTable &t, std::vector<Instance> &instances) {
  for (Instance &in : instances) {
    if (in.kind != Kind::Allreduce || in.repeats != 1 || !finalCombineUnseen(t, in)) continue;
    in.unproven |= kFinalCombine;
    if (in.note.empty())
      in.note = "the last step's messages arrived through a receive call the earlier, combined steps "
                "did not use, each carrying another partial value: whether they are combined no "
                "message shows";
  }
}

} // namespace cz::detect::detail
