/* block_crcs.c: per-block CRC-32s of sends, opt-in
 * (COLLECTIVIZE_TRACE_BLOCK_BYTES=n).
 *
 * Why: a message's CRC is known only as a whole. Algorithms that pack
 * blocks of several origins into one message (Bruck's alltoall: about P/2
 * blocks per message, repacked at every hop with memcpy or a derived
 * datatype) then cannot be followed: P log P message CRCs do not determine
 * P^2 block CRCs. With the CRC of every n-byte block of a message, each
 * block is an item the detector follows from the process that first sent
 * it to the one that keeps it (detector/analysis/src/block_flows.cpp).
 *
 * What: every hashed send (MpiSend, MpiIsend) of at least 2n bytes whose
 * packed size is a multiple of n gets an entry in <dir>/rank-N.blocks:
 * its event's index among the rank's events and the CRC of each n-byte
 * block of its packed payload (format: collectivize_trace_format.h,
 * CZ_TRACE_BLOCKS_FMT). A send of exactly n bytes needs none (its CRC is
 * the block's).
 *
 * Cost: off (the default) one test of czt_block_bytes per recorded send,
 * in otf2_writer.c; on, a second CRC pass over those payloads (packed
 * again when non-contiguous) and a buffered file write. The file is
 * written through stdio: after a kill the unflushed tail is lost, and the
 * detector treats those sends as if blocks had not been asked for. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tracer.h"

CZT_HOT_DATA uint64_t czt_block_bytes;

static FILE *out;
static unsigned char *packed; /* non-contiguous payloads, packed */
static size_t packed_cap;
static unsigned char *entry; /* one entry, encoded: written with one fwrite */
static size_t entry_cap;

/* n from COLLECTIVIZE_TRACE_BLOCK_BYTES, or 0 (unset or not a number > 0,
 * with one warning from rank 0). */
static uint64_t read_block_bytes(void) {
  const char *v = getenv("COLLECTIVIZE_TRACE_BLOCK_BYTES");
  if (!v || !*v) return 0;
  char *end = NULL;
  unsigned long long n = strtoull(v, &end, 10);
  if (*end || n == 0 || n > UINT32_MAX) {
    if (czt.rank == 0)
      czi_warn("trace: COLLECTIVIZE_TRACE_BLOCK_BYTES=%s is not a byte count > 0; "
               "no block CRCs are recorded", v);
    return 0;
  }
  return n;
}

static void put_le(unsigned char *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

void czt_blocks_open(const char *dir) {
  uint64_t n = read_block_bytes();
  if (!n) return;
  char path[4200];
  snprintf(path, sizeof path, "%s/" CZ_TRACE_BLOCKS_FMT, dir, czt.rank);
  out = czt_fopen_private(path);
  if (!out) {
    czi_warn("trace: cannot write %s; no block CRCs are recorded on this rank", path);
    return;
  }
  setvbuf(out, NULL, _IOFBF, 1 << 16);
  unsigned char header[CZ_TRACE_BLOCKS_HEADER_BYTES] = {0};
  put_le(header, CZ_TRACE_BLOCKS_MAGIC, 8);
  put_le(header + 8, CZ_TRACE_BLOCKS_VERSION, 4);
  put_le(header + 12, n, 4);
  fwrite(header, 1, sizeof header, out);
  czt_block_bytes = n;
}

void czt_blocks_close(void) {
  czt_block_bytes = 0;
  if (out && fclose(out) != 0)
    czi_warn("trace: writing rank %d's block CRCs failed; the trace has fewer of them",
             czt.rank);
  out = NULL;
  free(packed), packed = NULL, packed_cap = 0;
  free(entry), entry = NULL, entry_cap = 0;
}

/* The packed payload of m (NULL when it cannot be had). */
static const unsigned char *payload(const czt_msg *m) {
  /* In integers: MPI_BOTTOM (null) plus an absolute address (payload_hash.c). */
  if (m->layout.dense) return (const unsigned char *)((uintptr_t)m->buf + (uintptr_t)m->layout.true_lb);
  if (m->bytes > INT_MAX) return NULL;
  if (m->bytes > packed_cap) {
    unsigned char *p = realloc(packed, m->bytes);
    if (!p) return NULL;
    packed = p, packed_cap = m->bytes;
  }
  int position = 0;
  if (PMPI_Pack(m->buf, m->count, m->type, packed, (int)m->bytes, &position,
                MPI_COMM_SELF) != MPI_SUCCESS)
    return NULL;
  return packed;
}

void czt_blocks_note(uint64_t event, const czt_msg *m) {
  uint64_t n = czt_block_bytes;
  if (!out || !m->hashed || !m->layout_ok || m->bytes < 2 * n || m->bytes % n) return;
  uint64_t blocks = m->bytes / n;
  if (blocks > UINT32_MAX) return;
  const unsigned char *data = payload(m);
  if (!data) return;
  size_t size = 12 + 4 * (size_t)blocks;
  if (size > entry_cap) {
    unsigned char *e = realloc(entry, size);
    if (!e) return;
    entry = e, entry_cap = size;
  }
  put_le(entry, event, 8);
  put_le(entry + 8, blocks, 4);
  for (uint64_t b = 0; b < blocks; b++)
    put_le(entry + 12 + 4 * b, (uint32_t)crc32_z(0L, data + b * n, (z_size_t)n), 4);
  fwrite(entry, 1, size, out);
}
