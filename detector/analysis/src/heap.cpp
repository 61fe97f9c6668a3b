// heap.cpp: see heap.h.
#include "collectivize/heap.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace cz::detect {
namespace {

// COLLECTIVIZE_HUGE_PAGES=0 turns the policy off (less peak memory, more
// page faults).
bool enabled() {
  static const bool on = [] {
    const char *v = std::getenv("COLLECTIVIZE_HUGE_PAGES");
    return !(v && v[0] == '0');
  }();
  return on;
}

} // namespace

void keepFreedMemory() {
#if defined(__linux__) && defined(__GLIBC__)
  if (!enabled()) return;
  // Big vectors from the heap (not one mmap each, unmapped when freed and
  // faulted in again by the next phase), and freed memory kept.
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest
  mallopt(M_MMAP_MAX, 0); // and none mapped: a freed big vector stays for the next phase
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

void prepareHeap(uint64_t bytes) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  if (!enabled()) return;
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return;
  bytes = std::min<uint64_t>(bytes, uint64_t(pages) * uint64_t(pageSize) / 2);
  // One block below the mmap threshold comes from the heap (brk); a bigger
  // one would be mapped and unmapped. Several blocks grow the heap further.
  if (bytes < (uint64_t(64) << 20)) return; // small traces: not worth it
  keepFreedMemory();
  bytes = std::min<uint64_t>(bytes, uint64_t(3) << 29); // 1.5 GB at most
  mallopt(M_TOP_PAD, 64 << 20);
  const uint64_t block = uint64_t(30) << 20;
  std::vector<void *> blocks;
  for (uint64_t got = 0; got < bytes; got += block) {
    void *p = std::malloc(size_t(block));
    if (!p) break;
    adviseHugePages(p, block);
    blocks.push_back(p);
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) std::free(*it);
#else
  (void)bytes;
#endif
}

void adviseHugePages(const void *p, uint64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Small ranges are left alone: each advice may split a mapping in two,
  // and a trace of many small ranks must not exhaust the mapping count.
  if (!enabled() || bytes < (uint64_t(8) << 20)) return;
  const uintptr_t huge = uintptr_t(2) << 20;
  uintptr_t from = (reinterpret_cast<uintptr_t>(p) + huge - 1) & ~(huge - 1);
  uintptr_t to = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(huge - 1);
  if (to > from) madvise(reinterpret_cast<void *>(from), to - from, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

} // namespace cz::detect
