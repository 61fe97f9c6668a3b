/* predefined_types.h: the table of MPI's predefined datatypes (filled by
 * czt_types_init in payload_hash.c) and the lookups the message path makes
 * in it inline: a blocking send finds its type before it is posted, a late
 * receive when it is committed. As calls with their frames these were most
 * of a receive's 32 instructions for its type fields (bench/README.md,
 * "Tracer overhead"). Included by tracer.h; derived types go out of line. */
#ifndef CZT_PREDEFINED_TYPES_H
#define CZT_PREDEFINED_TYPES_H

#include <limits.h>
#include <stdint.h>
#include <mpi.h>

#include "collectivize_trace_format.h"

/* A predefined datatype, its format code and layout (handles are not
 * compile-time constants in every MPI), 16 bytes (12 with int handles): a
 * message reads one or two cache lines of the table, not a full czi_type
 * per entry. */
typedef struct czt_predefined {
  MPI_Datatype type;
  uint32_t code;
  uint32_t size : 31, dense : 1; /* dense: from buf, true_lb 0 */
} czt_predefined;
_Static_assert(sizeof(czt_predefined) <= 16, "at least four entries per cache line");
/* Most frequent types first: lookups scan in order. */
extern czt_predefined czt_predefined_types[CZ_TRACE_TYPE_COUNT];
extern int czt_n_predefined;

/* type's entry, or NULL (a derived type). */
static inline const czt_predefined *czt_predefined_of(MPI_Datatype type) {
  for (int i = 0; i < czt_n_predefined; i++)
    if (czt_predefined_types[i].type == type) return &czt_predefined_types[i];
  return NULL;
}

/* Whole elements of size bytes in received bytes (0: size unknown, or
 * more than an int counts). Bytes (size 1) without a division: tens of
 * cycles per receive. */
static inline uint32_t czt_whole_elements(uint64_t received, uint64_t size) {
  uint64_t whole = size > 1 ? received / size : size ? received : 0;
  return whole <= INT_MAX ? (uint32_t)whole : 0;
}

/* czt_recv_type_fields for a derived type (payload_hash.c). */
void czt_recv_type_fields_derived(MPI_Datatype type, uint64_t received, uint32_t *code,
                                  uint32_t *count);
/* What a receive's record takes from its datatype: the type's code and the
 * whole elements in received bytes (as czt_msg_recv). */
static inline void czt_recv_type_fields(MPI_Datatype type, uint64_t received, uint32_t *code,
                                        uint32_t *count) {
  const czt_predefined *p = czt_predefined_of(type);
  if (!p) {
    czt_recv_type_fields_derived(type, received, code, count);
    return;
  }
  *code = p->code;
  *count = czt_whole_elements(received, p->size);
}

#endif /* CZT_PREDEFINED_TYPES_H */
