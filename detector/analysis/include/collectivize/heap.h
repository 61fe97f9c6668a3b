// heap.h: the detector's memory policy. Its records (a Message per send,
// the provenance pools) are written once, page after page: on a VM every
// first touch of a 4 KiB page is a fault that costs more than the record
// it holds (a third of the detector's time on the bench trace).
#pragma once

#include <cstdint>

// COLLECTIVIZE_HUGE_PAGES=0 in the environment turns all three off.
namespace cz::detect {

// Keeps the memory the process frees for its next allocations (no big
// block mapped on its own, none handed back to the system): a fresh page
// costs its first touch again. Call before opening the trace: the OTF2
// reader zeroes a 4 MiB buffer for every rank's definitions, which glibc
// otherwise maps and unmaps (each then touched afresh; 15-20 ms of CPU on
// the bench trace's 8 ranks). prepareHeap does it too.
void keepFreedMemory();

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
