// heap.h: the detector's memory policy. Its records (a Message per send,
// the provenance pools) are written once, page after page: on a VM every
// first touch of a 4 KiB page is a fault that costs more than the record
// it holds (a third of the detector's time on the bench trace).
#pragma once

#include <cstdint>

// COLLECTIVIZE_HUGE_PAGES=0 in the environment turns both off.
namespace cz::detect {

// Grows the malloc heap by `bytes` up front, marks it for transparent huge
// pages (MADV_HUGEPAGE: the "madvise" THP mode most distributions ship)
// and hands it back to malloc, which keeps it (trim and mmap thresholds
// raised) and serves the detector's vectors from it. Untouched pages cost
// address space only. Capped at half the physical memory; a no-op where
// it does not apply. Call once, before the big allocations.
void prepareHeap(uint64_t bytes);

// Marks the whole 2 MiB pages inside [p, p + bytes) for transparent huge
// pages; for the vectors too big for the heap (malloc maps them one by
// one). Call after reserve(), before writing.
void adviseHugePages(const void *p, uint64_t bytes);
template <class V>
void adviseHugePages(const V &v) {
  adviseHugePages(v.data(), uint64_t(v.capacity()) * sizeof(*v.data()));
}

} // namespace cz::detect
