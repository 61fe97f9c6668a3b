/* chunk_arena.c: the memory OTF2 encodes event chunks into.
 *
 * OTF2 keeps a location's newest events in memory chunks and writes them to
 * the .evt file only when its pool is full or at close, so a run that is
 * killed loses them. Here the pool is a file, <dir>/rank-N.chunks, mapped
 * MAP_SHARED: whatever OTF2 has encoded is in the page cache the moment it
 * is stored and survives SIGKILL, MPI_Abort or a segfault of the process
 * (not a machine crash). `collectivize trace repair` appends those chunks
 * to the .evt file. After every flush the slots are zeroed, so a slot holds
 * either nothing or chunks that never reached the .evt file, and the bytes
 * after the last record of the current chunk read as OTF2's end-of-chunk
 * mark (0x00). Definition buffers (written at close) use plain malloc.
 *
 * Costs: one memset of the used slots per flush (a few ns per event) and
 * the kernel writing the dirty pages back in the background. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracer.h"

static unsigned char *base; /* the mapping, slots * chunk bytes */
static uint64_t chunk_bytes;
static int slots, used;
static char path[4200];

/* Definition chunks: a list per buffer, freed together. */
typedef struct heap_chunk {
  struct heap_chunk *next;
} heap_chunk;

static void *allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc,
                      void **per_buffer, uint64_t size) {
  if (type != OTF2_FILETYPE_EVENTS) {
    heap_chunk *c = malloc(sizeof(heap_chunk) + size);
    if (!c) return NULL;
    c->next = *per_buffer;
    *per_buffer = c;
    return c + 1;
  }
  if (size != chunk_bytes || used == slots) return NULL; /* OTF2 flushes */
  return base + (uint64_t)used++ * chunk_bytes;
}

static void free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc,
                     void **per_buffer, bool final) {
  if (type != OTF2_FILETYPE_EVENTS) {
    for (heap_chunk *c = *per_buffer, *next; c; c = next) {
      next = c->next;
      free(c);
    }
    *per_buffer = NULL;
    return;
  }
  /* The chunks are in the .evt file now. */
  memset(base, 0, (size_t)used * chunk_bytes);
  used = 0;
}

static const OTF2_MemoryCallbacks callbacks = {allocate, free_all};

/* NULL when the file cannot be made (OTF2 then uses its own memory, and a
 * killed run loses its unflushed events). */
const OTF2_MemoryCallbacks *czt_arena_open(const char *dir, uint64_t chunk,
                                           int n) {
  snprintf(path, sizeof path, "%s/" CZ_TRACE_CHUNKS_FMT, dir, czt.rank);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return NULL;
  size_t bytes = (size_t)chunk * (size_t)n;
  void *p = MAP_FAILED;
  /* Blocks reserved now: a store into a sparse page on a full disk would
   * be SIGBUS, not an error code. */
  if (posix_fallocate(fd, 0, (off_t)bytes) == 0)
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    unlink(path);
    return NULL;
  }
  base = p;
  chunk_bytes = chunk;
  slots = n;
  used = 0;
  return &callbacks;
}

void czt_arena_close(void) {
  if (!base) return;
  munmap(base, (size_t)chunk_bytes * (size_t)slots);
  base = NULL;
  unlink(path); /* everything reached the .evt file */
}
