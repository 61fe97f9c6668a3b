/* payload_hash.c: CRC-32 and prefix of a message's packed payload. Dense
 * layouts are hashed in place; other layouts are packed with PMPI_Pack into
 * a per-thread buffer first, so a sender's vector and a receiver's
 * contiguous array of the same data hash equally. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef CZT_HAVE_ISAL
#include <isa-l/crc.h>
#endif

#include "tracer.h"

/* The predefined datatypes' table (predefined_types.h), aligned so its
 * first entries share one cache line. */
czt_predefined czt_predefined_types[CZ_TRACE_TYPE_COUNT] __attribute__((aligned(64)));
CZT_HOT_DATA int czt_n_predefined;

static void crc_init(void);

static void add(MPI_Datatype type, uint32_t code) {
  czi_type t;
  if (type == MPI_DATATYPE_NULL || czi_type_get(type, &t) != MPI_SUCCESS ||
      t.size >= (1u << 31))
    return;
  czt_predefined *p = &czt_predefined_types[czt_n_predefined++];
  p->type = type;
  p->code = code;
  p->size = (uint32_t)t.size;
  /* A layout with a lower bound other than 0 is packed like a derived one. */
  p->dense = t.dense && t.true_lb == 0;
}

static void add_sized(MPI_Datatype type, uint32_t code, size_t size) {
  int before = czt_n_predefined;
  add(type, code);
  if (czt_n_predefined > before && czt_predefined_types[before].size != size)
    czt_n_predefined = before;
}

void czt_types_init(void) {
  crc_init();
  czt_n_predefined = 0;
  /* Most frequent first: lookups scan in order. */
  add(MPI_BYTE, CZ_TRACE_TYPE_BYTE);
  add(MPI_INT, CZ_TRACE_TYPE_INT);
  add(MPI_DOUBLE, CZ_TRACE_TYPE_DOUBLE);
  add(MPI_CHAR, CZ_TRACE_TYPE_CHAR);
  add(MPI_FLOAT, CZ_TRACE_TYPE_FLOAT);
  add(MPI_LONG, CZ_TRACE_TYPE_LONG);
  add(MPI_LONG_LONG, CZ_TRACE_TYPE_LONG_LONG);
  add(MPI_SIGNED_CHAR, CZ_TRACE_TYPE_SIGNED_CHAR);
  add(MPI_UNSIGNED_CHAR, CZ_TRACE_TYPE_UNSIGNED_CHAR);
  add(MPI_SHORT, CZ_TRACE_TYPE_SHORT);
  add(MPI_UNSIGNED_SHORT, CZ_TRACE_TYPE_UNSIGNED_SHORT);
  add(MPI_UNSIGNED, CZ_TRACE_TYPE_UNSIGNED);
  add(MPI_UNSIGNED_LONG, CZ_TRACE_TYPE_UNSIGNED_LONG);
  add(MPI_UNSIGNED_LONG_LONG, CZ_TRACE_TYPE_UNSIGNED_LONG_LONG);
  add(MPI_LONG_DOUBLE, CZ_TRACE_TYPE_LONG_DOUBLE);
  add(MPI_PACKED, CZ_TRACE_TYPE_PACKED);
  add(MPI_INT8_T, CZ_TRACE_TYPE_INT8_T);
  add(MPI_INT16_T, CZ_TRACE_TYPE_INT16_T);
  add(MPI_INT32_T, CZ_TRACE_TYPE_INT32_T);
  add(MPI_INT64_T, CZ_TRACE_TYPE_INT64_T);
  add(MPI_UINT8_T, CZ_TRACE_TYPE_UINT8_T);
  add(MPI_UINT16_T, CZ_TRACE_TYPE_UINT16_T);
  add(MPI_UINT32_T, CZ_TRACE_TYPE_UINT32_T);
  add(MPI_UINT64_T, CZ_TRACE_TYPE_UINT64_T);
  add(MPI_C_BOOL, CZ_TRACE_TYPE_C_BOOL);
  add(MPI_WCHAR, CZ_TRACE_TYPE_WCHAR);
  add(MPI_2INT, CZ_TRACE_TYPE_2INT);
  add(MPI_FLOAT_INT, CZ_TRACE_TYPE_FLOAT_INT);
  add(MPI_DOUBLE_INT, CZ_TRACE_TYPE_DOUBLE_INT);
  add(MPI_LONG_INT, CZ_TRACE_TYPE_LONG_INT);
  add(MPI_SHORT_INT, CZ_TRACE_TYPE_SHORT_INT);
  add(MPI_LONG_DOUBLE_INT, CZ_TRACE_TYPE_LONG_DOUBLE_INT);
  /* Fortran's, named as a Fortran program names them (MPI_DOUBLE_PRECISION
   * is not MPI_DOUBLE's handle); MPI_DATATYPE_NULL or unusable in an MPI
   * built without Fortran, which add() skips. The default kinds only with
   * the sizes the format gives them (an MPI built for 8-byte INTEGERs
   * records its MPI_INTEGER as derived, never as another size). */
  add_sized(MPI_INTEGER, CZ_TRACE_TYPE_INTEGER, 4);
  add_sized(MPI_DOUBLE_PRECISION, CZ_TRACE_TYPE_DOUBLE_PRECISION, 8);
  add_sized(MPI_REAL, CZ_TRACE_TYPE_REAL, 4);
  add(MPI_COMPLEX, CZ_TRACE_TYPE_COMPLEX);
  add(MPI_DOUBLE_COMPLEX, CZ_TRACE_TYPE_DOUBLE_COMPLEX);
  add(MPI_LOGICAL, CZ_TRACE_TYPE_LOGICAL);
  add(MPI_CHARACTER, CZ_TRACE_TYPE_CHARACTER);
  add(MPI_INTEGER4, CZ_TRACE_TYPE_INTEGER4);
  add(MPI_INTEGER8, CZ_TRACE_TYPE_INTEGER8);
  add(MPI_REAL4, CZ_TRACE_TYPE_REAL4);
  add(MPI_REAL8, CZ_TRACE_TYPE_REAL8);
}

/* Layout of type: from the table for predefined types, asked from MPI
 * otherwise (derived handles can be freed and reused, so they are not
 * cached). 0 when MPI cannot say. */
static __attribute__((noinline)) int derived_layout(MPI_Datatype type, czt_layout *l) {
  czi_type t;
  if (czi_type_get(type, &t) != MPI_SUCCESS) return 0;
  *l = (czt_layout){t.size, t.true_lb, t.dense};
  return 1;
}

/* Derived types out of line: with their czi_type on the stack every
 * message description saved six registers and made a frame (20 of its
 * 63 instructions for an 8-byte send). */
CZT_HOT static int layout_of(MPI_Datatype type, const czt_predefined *p, czt_layout *l) {
  if (!p) return derived_layout(type, l);
  *l = (czt_layout){p->size, 0, p->dense};
  return 1;
}

uint64_t czt_type_bytes(int count, MPI_Datatype type) {
  czt_layout l;
  if (count <= 0 || !layout_of(type, czt_predefined_of(type), &l)) return 0;
  return (uint64_t)count * l.size;
}

/* Reusable per-thread buffer for packed payloads (grows, never shrinks). */
static _Thread_local unsigned char *pack_buf;
static _Thread_local size_t pack_cap;

static unsigned char *pack_space(size_t bytes) {
  if (bytes > pack_cap) {
    size_t cap = pack_cap ? pack_cap : 4096;
    while (cap < bytes) cap *= 2;
    unsigned char *p = realloc(pack_buf, cap);
    if (!p) return NULL;
    pack_buf = p;
    pack_cap = cap;
  }
  return pack_buf;
}

/* zlib's CRC-32 (reflected 0xEDB88320). ISA-L computes the same values
 * with carry-less multiplies, measured here at 55 GB/s for 64 KiB..1 MiB
 * against zlib's 5.9, and 6 ns against zlib's 104 for 64 bytes. Up to 16
 * bytes byte-wise; without ISA-L byte-wise up to 64 bytes (beats
 * crc32_z's setup), zlib above. */
static uint32_t crc_table[256];
static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}
CZT_HOT uint32_t czt_crc32(const unsigned char *p, uint64_t n) {
  /* Tiny payloads byte-wise: cheaper than a call into another library
   * whose code page the message path would touch as well. */
  if (n > 16) {
#ifdef CZT_HAVE_ISAL
    if (n <= UINT32_MAX) return crc32_gzip_refl(0, p, n);
#endif
    if (n > 64) return (uint32_t)crc32_z(0L, p, (z_size_t)n);
  }
  uint32_t c = 0xFFFFFFFFu;
  for (uint64_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

/* count elements of type packed into the per-thread buffer, or NULL.
 * Out of line: the dense case (every predefined type) saves no registers
 * for it. */
static __attribute__((noinline)) const unsigned char *packed(const void *buf, int count,
                                                             MPI_Datatype type, uint64_t size) {
  /* Whole elements; a partial last one (short receive) is cut by the caller. */
  size_t full = (size_t)count * size;
  unsigned char *space = pack_space(full);
  int position = 0;
  if (!space || full > INT_MAX ||
      PMPI_Pack(buf, count, type, space, (int)full, &position, MPI_COMM_SELF) != MPI_SUCCESS)
    return NULL;
  return space;
}

/* Hash count elements of layout t at buf (packed bytes), at most limit
 * bytes. Inlined into its two callers: an 8-byte send's hash took 64
 * instructions with the call and its frame, 43 without (bench/README.md,
 * "Tracer overhead"). */
CZT_HOT static inline void hash_layout(const void *buf, int count, MPI_Datatype type,
                                       const czt_layout *t, uint64_t limit, uint64_t *bytes,
                                       uint32_t *crc, uint64_t *prefix) {
  *bytes = 0;
  *crc = 0;
  *prefix = 0;
  if (count <= 0) return;
  uint64_t n = (uint64_t)count * t->size;
  if (n > limit) n = limit;
  if (n == 0) return;
  /* Dense: in integers, as buf may be MPI_BOTTOM (null) with absolute
   * addresses in the datatype, where pointer arithmetic on it is
   * undefined. */
  const unsigned char *data =
      t->dense ? (const unsigned char *)((uintptr_t)buf + (uintptr_t)t->true_lb)
               : packed(buf, count, type, t->size);
  if (!data) return; /* bytes 0: "not hashed" */
  *bytes = n;
  *prefix = czt_prefix_of(data, n);
  *crc = n > CZT_CRC_FROM_PREFIX_BYTES ? czt_crc32(data, n) : 0; /* see event_log.h */
}

/* The datatype's code and layout, looked up once per message. */
CZT_HOT static void describe(czt_msg *m, MPI_Datatype type) {
  const czt_predefined *p = czt_predefined_of(type);
  m->type = type;
  m->type_code = p ? p->code : CZ_TRACE_TYPE_DERIVED;
  m->layout_ok = layout_of(type, p, &m->layout);
}

void czt_recv_type_fields_derived(MPI_Datatype type, uint64_t received, uint32_t *code,
                                  uint32_t *count) {
  czt_layout l;
  *code = CZ_TRACE_TYPE_DERIVED;
  *count = derived_layout(type, &l) ? czt_whole_elements(received, l.size) : 0;
}

CZT_HOT void czt_msg_send_info(czt_msg *m, const void *buf, int count,
                       MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                       czt_site site) {
  /* The arguments stored before the lookup, so none is kept in a register
   * across it: a predefined type's path then needs no frame. */
  m->comm = comm;
  m->peer = peer;
  m->tag = tag;
  m->count = count;
  m->buf = buf;
  m->site = site;
  m->kept = 0;
  m->hashed = 0;
  m->crc = 0;
  m->prefix = 0;
  describe(m, type);
  m->bytes = m->layout_ok && m->count > 0 ? (uint64_t)m->count * m->layout.size : 0;
}

CZT_HOT void czt_msg_hash(czt_msg *m) {
  if (m->layout_ok)
    hash_layout(m->buf, m->count, m->type, &m->layout, UINT64_MAX, &m->bytes, &m->crc,
                &m->prefix);
  m->hashed = 1;
}

CZT_HOT void czt_msg_send(czt_msg *m, const void *buf, int count, MPI_Datatype type,
                  int peer, int tag, MPI_Comm comm, czt_site site) {
  czt_msg_send_info(m, buf, count, type, peer, tag, comm, site);
  czt_msg_hash(m);
}

CZT_HOT void czt_msg_recv(czt_msg *m, const void *buf, MPI_Datatype type,
                  MPI_Comm comm, const MPI_Status *st, czt_site site) {
  uint64_t received = czt_status_bytes(st); /* whatever the datatype */
  describe(m, type);
  size_t size = m->layout_ok ? m->layout.size : 0;
  m->comm = comm;
  m->peer = st->MPI_SOURCE;
  m->tag = st->MPI_TAG;
  m->count = (int)czt_whole_elements(received, size);
  m->buf = buf;
  m->site = site;
  m->kept = 0;
  m->bytes = (uint64_t)received;
  m->crc = 0;
  m->prefix = 0;
  m->hashed = 0;
  /* The matched send carries the payload's hash; hashing again here is a
   * check of MPI and the tracer (COLLECTIVIZE_TRACE_HASH=both). */
  if (!czt.hash_receives || size == 0) return;
  uint64_t elements = (received + size - 1) / size;
  if (elements > INT_MAX) return;
  hash_layout(buf, (int)elements, type, &m->layout, (uint64_t)received, &m->bytes, &m->crc,
              &m->prefix);
  m->hashed = 1;
}
